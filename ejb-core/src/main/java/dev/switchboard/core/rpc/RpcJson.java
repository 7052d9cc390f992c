package dev.switchboard.core.rpc;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.Lifecycle;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** Shapes the methods' results share: a plain success, and a time that may be absent. */
final class RpcJson {

    private RpcJson() {
    }

    static JsonObject success(String message) {
        return Jsons.createObjectBuilder().add("success", true).add("message", message).build();
    }

    static JsonValue time(Long epochMs) {
        return epochMs == null ? JsonValue.NULL : Jsons.createValue(Lifecycle.time(epochMs));
    }
}
