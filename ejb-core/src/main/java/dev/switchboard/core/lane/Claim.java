package dev.switchboard.core.lane;

/**
 * A run claimed for execution: everything the engine needs, the fence (attempt), and how long the
 * lease has left by the database's clock when the claiming transaction read it — a fresh claim
 * has the whole lease, an adopted one what remains of it. {@code turnId} is the turn the run belongs
 * to (null for a run without one), named in its progress notifications; {@code source} is where the
 * run came from ({@code api}, {@code rpc}, {@code responses} …).
 */
public record Claim(String runId, long threadId, int attempt, String userKey, String threadKey,
        String inputText, String deliveryMode, long leaseLeftMs, String turnId, String source) {

    public RunAttempt key() {
        return new RunAttempt(runId, attempt);
    }
}
