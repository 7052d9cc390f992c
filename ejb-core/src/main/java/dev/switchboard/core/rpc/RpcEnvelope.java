package dev.switchboard.core.rpc;

import dev.switchboard.core.input.InvalidJsonException;
import dev.switchboard.core.input.StorableText;
import dev.switchboard.core.input.StrictJson;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * JSON-RPC 2.0 envelopes with Holon's rules: one request object (a batch is a parse error),
 * checks in a fixed order, {@code id} echoed with its JSON type, an absent or null {@code id}
 * making a notification. Shared by {@code POST /rpc} and the WebSocket.
 */
public final class RpcEnvelope {

    /** The longest string id a request may carry. */
    public static final int MAX_ID_LENGTH = 256;

    private RpcEnvelope() {
    }

    /** A request that passed the envelope checks; {@code id} is null for a notification. */
    public record Request(JsonValue id, String method, JsonValue params) {

        public boolean isNotification() {
            return id == null;
        }
    }

    /** Either a request or the envelope error to answer (HTTP: 400, {@code id} null). */
    public record Parsed(Request request, RpcError error) {
    }

    public static Parsed parse(String body) {
        if (body == null || body.isBlank()) {
            return invalid(RpcError.INVALID_REQUEST, "empty request body");
        }
        JsonValue value;
        try {
            value = StrictJson.parse(body);
        } catch (InvalidJsonException e) {
            return new Parsed(null, new RpcError(RpcError.PARSE_ERROR, "Parse error",
                    Jsons.createObjectBuilder().add("reason", e.getMessage()).build()));
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            return invalid(RpcError.PARSE_ERROR, "Parse error");
        }
        JsonObject request = value.asJsonObject();
        JsonValue version = request.get("jsonrpc");
        if (version == null || version.getValueType() != JsonValue.ValueType.STRING
                || !"2.0".equals(request.getString("jsonrpc"))) {
            return invalid(RpcError.INVALID_REQUEST, "jsonrpc version must be '2.0'");
        }
        JsonValue method = request.get("method");
        if (method == null || method.getValueType() != JsonValue.ValueType.STRING
                || request.getString("method").isEmpty()) {
            return invalid(RpcError.INVALID_REQUEST, "method is required");
        }
        if (StorableText.problem(request.getString("method")).isPresent()) {
            return invalid(RpcError.INVALID_REQUEST, "method must be a method name");
        }
        JsonValue id = request.get("id");
        if (id != null && id.getValueType() == JsonValue.ValueType.NULL) {
            id = null;
        }
        if (id != null && !validId(id)) {
            return invalid(RpcError.INVALID_REQUEST, "id must be a string of at most " + MAX_ID_LENGTH
                    + " characters, an integer or null");
        }
        return new Parsed(new Request(id, request.getString("method"), request.get("params")), null);
    }

    /**
     * JSON-RPC 2.0 allows a string, a number or null; objects, arrays and booleans are refused, and
     * so are ids no client needs that would be echoed into every answer: long or unstorable strings
     * and numbers that are not integers.
     */
    private static boolean validId(JsonValue id) {
        if (id instanceof JsonString s) {
            return s.getString().length() <= MAX_ID_LENGTH && StorableText.problem(s.getString()).isEmpty();
        }
        return id instanceof JsonNumber n && n.isIntegral();
    }

    private static Parsed invalid(int code, String message) {
        return new Parsed(null, new RpcError(code, message, null));
    }

    public static JsonObject result(JsonValue id, JsonObject result) {
        return Jsons.createObjectBuilder().add("jsonrpc", "2.0").add("id", idOrNull(id)).add("result", result).build();
    }

    public static JsonObject error(JsonValue id, RpcError error) {
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("jsonrpc", "2.0").add("id", idOrNull(id));
        return b.add("error", error.toJson()).build();
    }

    private static JsonValue idOrNull(JsonValue id) {
        return id == null ? JsonValue.NULL : id;
    }
}
