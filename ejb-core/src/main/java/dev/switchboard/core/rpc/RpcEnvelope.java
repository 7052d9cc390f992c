package dev.switchboard.core.rpc;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;

/**
 * JSON-RPC 2.0 envelopes with Holon's rules: one request object (a batch is a parse error),
 * checks in a fixed order, {@code id} echoed with its JSON type, an absent or null {@code id}
 * making a notification. Shared by {@code POST /rpc} and the WebSocket.
 */
public final class RpcEnvelope {

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
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            value = reader.readValue();
        } catch (JsonParsingException | IllegalStateException e) {
            return invalid(RpcError.PARSE_ERROR, "Parse error");
        } catch (RuntimeException e) {
            return invalid(RpcError.PARSE_ERROR, "Parse error");
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
        JsonValue id = request.get("id");
        if (id != null && id.getValueType() == JsonValue.ValueType.NULL) {
            id = null;
        }
        return new Parsed(new Request(id, request.getString("method"), request.get("params")), null);
    }

    private static Parsed invalid(int code, String message) {
        return new Parsed(null, new RpcError(code, message, null));
    }

    public static JsonObject result(JsonValue id, JsonObject result) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", idOrNull(id)).add("result", result).build();
    }

    public static JsonObject error(JsonValue id, RpcError error) {
        JsonObjectBuilder b = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", idOrNull(id));
        return b.add("error", error.toJson()).build();
    }

    private static JsonValue idOrNull(JsonValue id) {
        return id == null ? JsonValue.NULL : id;
    }
}
