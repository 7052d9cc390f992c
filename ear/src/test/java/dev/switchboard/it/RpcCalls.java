package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;

/** JSON-RPC calls over any transport ({@code POST /rpc} or the WebSocket): results and expected errors. */
interface RpcCalls {

    /** Sends a request and returns the whole response (transport checks included). */
    JsonObject call(String method, JsonObject params);

    /** Calls {@code method} and returns its {@code result}; fails on a JSON-RPC error. */
    default JsonObject result(String method, JsonObject params) {
        JsonObject response = call(method, params);
        assertTrue(response.containsKey("result") && !response.containsKey("error"),
                () -> method + " " + params + " failed: " + response);
        return response.getJsonObject("result");
    }

    /** Calls {@code method}, expects a JSON-RPC error with {@code code}; returns the error object. */
    default JsonObject error(String method, JsonObject params, int code) {
        JsonObject response = call(method, params);
        assertTrue(response.containsKey("error") && !response.containsKey("result"),
                () -> method + " " + params + " should fail with " + code + ": " + response);
        JsonObject error = response.getJsonObject("error");
        assertEquals(code, error.getInt("code"), () -> method + " " + params + ": " + response);
        return error;
    }
}
