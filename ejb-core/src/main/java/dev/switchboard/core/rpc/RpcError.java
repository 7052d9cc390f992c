package dev.switchboard.core.rpc;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;

/** A JSON-RPC error object; {@code data} may be null. */
public record RpcError(int code, String message, JsonObject data) {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    /** A field validation failure: Holon's {@code data: {field, reason}}. */
    public static RpcError invalidField(String field, String reason) {
        return new RpcError(INVALID_PARAMS, reason,
                Jsons.createObjectBuilder().add("field", field).add("reason", reason).build());
    }

    /** Params that do not decode: {@code invalid params: <detail>}, no data. */
    public static RpcError undecodable(String detail) {
        return new RpcError(INVALID_PARAMS, "invalid params: " + detail, null);
    }

    public static RpcError internal(String message) {
        return new RpcError(INTERNAL_ERROR, message, null);
    }

    public JsonObject toJson() {
        var b = Jsons.createObjectBuilder().add("code", code).add("message", message);
        if (data != null) {
            b.add("data", data);
        }
        return b.build();
    }
}
