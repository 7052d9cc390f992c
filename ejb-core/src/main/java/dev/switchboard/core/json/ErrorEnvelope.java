package dev.switchboard.core.json;

import jakarta.json.JsonObject;

/**
 * The error envelope of the REST API, {@code {"error":{"code":…,"message":…}}} — the one place it
 * is built, for both web modules (JAX-RS answers and the WebSocket handshake's refusals). JSON-RPC
 * and Open Responses have envelopes of their own ({@code RpcEnvelope}, {@code ResponseError}).
 */
public final class ErrorEnvelope {

    private ErrorEnvelope() {
    }

    public static JsonObject of(String code, String message) {
        return Jsons.createObjectBuilder()
                .add("error", Jsons.createObjectBuilder().add("code", code).add("message", message)).build();
    }

    /** A refusal that is only about now (a full queue or pool), with {@code retry_after} in seconds. */
    public static JsonObject busy(String code, String message, int retryAfterSeconds) {
        return Jsons.createObjectBuilder().add("error", Jsons.createObjectBuilder().add("code", code)
                .add("message", message).add("retry_after", retryAfterSeconds)).build();
    }
}
