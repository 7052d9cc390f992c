package dev.switchboard.core.engine;

/** The input of one engine call: the run, its thread, its attempt, and the call's cancellation. */
public record EngineRequest(String runId, String userKey, String threadKey, String inputText,
        String deliveryMode, int attempt, Cancellation cancellation) {

    public boolean cancelled() {
        return cancellation.isCancelled();
    }
}
