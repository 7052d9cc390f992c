package dev.switchboard.core.thread;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** A thread's workspace: whether it has one, and its line's head (null at its start). */
public record WorkspaceView(String threadKey, boolean enabled, String head) {

    public JsonObject toJson() {
        return Jsons.createObjectBuilder().add("thread_key", threadKey).add("enabled", enabled)
                .add("head", head == null || head.isEmpty() ? JsonValue.NULL : Jsons.createValue(head)).build();
    }
}
