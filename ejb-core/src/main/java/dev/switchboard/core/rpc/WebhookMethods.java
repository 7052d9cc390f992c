package dev.switchboard.core.rpc;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.webhook.WebhookException;
import dev.switchboard.core.webhook.Webhooks;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code webhook/*}: the REST calls of {@code /v1/webhooks} as JSON-RPC methods, with the same
 * members and answers; a refusal is invalid params whose {@code data} carries the REST error code
 * ({@code {"field":…, "reason":…, "code":…}}).
 */
@ApplicationScoped
public class WebhookMethods {

    private static final Set<String> ID = Set.of("id");

    @EJB
    Webhooks webhooks;

    JsonObject create(String userKey, Params params) {
        return answer(() -> webhooks.create(userKey, params.object(), Set.of()));
    }

    JsonObject list(String userKey) {
        return answer(() -> webhooks.list(userKey));
    }

    JsonObject read(String userKey, Params params) {
        return answer(() -> webhooks.read(userKey, id(params)));
    }

    JsonObject update(String userKey, Params params) {
        return answer(() -> webhooks.update(userKey, id(params), params.object(), ID));
    }

    JsonObject delete(String userKey, Params params) {
        return answer(() -> {
            webhooks.delete(userKey, id(params));
            return Jsons.createObjectBuilder().add("deleted", true).build();
        });
    }

    JsonObject rotate(String userKey, Params params) {
        return answer(() -> webhooks.rotate(userKey, id(params), params.object(), ID));
    }

    JsonObject messages(String userKey, Params params) {
        return answer(() -> webhooks.messages(userKey, id(params), params.string("cursor"), limit(params)));
    }

    JsonObject attempts(String userKey, Params params) {
        return answer(() -> webhooks.attempts(userKey, id(params), params.string("message_id"), params.string("cursor"),
                limit(params)));
    }

    JsonObject replay(String userKey, Params params) {
        String message = params.string("message_id");
        if (message == null) {
            throw new RpcException(RpcError.invalidField("message_id", "message_id is required"));
        }
        return answer(() -> webhooks.replay(userKey, id(params), message));
    }

    private static Integer limit(Params params) {
        return params.raw("limit") == null ? null : params.bounded("limit", 1, 200, 50, "limit is from 1 to 200");
    }

    private static String id(Params params) {
        String id = params.string("id");
        if (id == null) {
            throw new RpcException(RpcError.invalidField("id", "id is required"));
        }
        return id;
    }

    private static JsonObject answer(Supplier<JsonObject> call) {
        try {
            return call.get();
        } catch (WebhookException e) {
            // The param the refusal is about: named by the code (invalid_<field>, url_not_allowed,
            // message_not_found and message_sending), else the endpoint's id.
            String field = e.code().startsWith("invalid_") ? e.code().substring("invalid_".length())
                    : e.code().equals("url_not_allowed") ? "url" : e.code().startsWith("message_") ? "message_id" : "id";
            throw new RpcException(new RpcError(RpcError.INVALID_PARAMS, e.getMessage(), Jsons.createObjectBuilder()
                    .add("field", field).add("reason", e.getMessage()).add("code", e.code()).build()));
        }
    }
}
