package dev.switchboard.core.engine;

import java.util.function.BooleanSupplier;

/** The input of one engine call: the run, its thread and its attempt. */
public record EngineRequest(String runId, String userKey, String threadKey, String inputText,
        String deliveryMode, int attempt, BooleanSupplier cancellation) {

    public boolean cancelled() {
        return cancellation.getAsBoolean();
    }
}
