package dev.switchboard.rest.liberty;

import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A relayed answer given to the client that asked: Liberty's {@code 200} (or redirect) as it came,
 * its {@code 404} as {@code notFound}, anything else — and a relay that failed — as {@code 503}
 * in the API's envelope, the cause in the log.
 */
final class Relayed {

    private static final Logger LOG = Logger.getLogger(Relayed.class.getName());

    private Relayed() {
    }

    static void resume(AsyncResponse client, LibertyEndpoints endpoints, String pathAndQuery, String accept,
            ApiException notFound) {
        CompletableFuture<LibertyEndpoints.Answer> relayed = endpoints.get(pathAndQuery, accept).orElseThrow(
                () -> new ApiException(503, "server_busy", "as many requests as this instance relays to Liberty's"
                        + " own endpoints are under way; retry", 1));
        relayed.whenComplete((answer, failure) -> {
            if (failure != null) {
                LOG.log(Level.WARNING, "Relaying " + pathAndQuery + " from Liberty's internal port failed", failure);
                client.resume(unavailable());
            } else if (answer.status() == 200) {
                Response.ResponseBuilder ok = Response.ok(answer.body());
                answer.headers().forEach(ok::header);
                client.resume(ok.build());
            } else if (answer.status() == 404) {
                client.resume(ErrorBody.response(notFound));
            } else {
                LOG.warning(() -> "Liberty's endpoint answered " + answer.status() + " to " + pathAndQuery);
                client.resume(unavailable());
            }
        });
    }

    private static Response unavailable() {
        return ErrorBody.response(503, "unavailable", "the server could not read that; retry");
    }
}
