package dev.switchboard.core.lane;

/** A run claimed for execution: everything the engine needs, plus the fence (attempt). */
public record Claim(String runId, long threadId, int attempt, String userKey, String threadKey,
        String inputText, String deliveryMode) {
}
