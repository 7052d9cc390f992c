package dev.switchboard.core.lane;

import dev.switchboard.core.thread.ThreadRuntime;

/**
 * A run claimed for execution: everything the engine needs, the fence (attempt), and how long the
 * lease has left by the database's clock when the claiming transaction read it — a fresh claim
 * has the whole lease, an adopted one what remains of it. {@code turnId} is the turn the run belongs
 * to (null for a run without one), named in its progress notifications; {@code source} is where the
 * run came from ({@code api}, {@code rpc}, {@code responses} …); {@code runtime} what its thread chose
 * to run it with, read with the lane's lock.
 */
public record Claim(String runId, long threadId, int attempt, String userKey, String threadKey,
        String inputText, String deliveryMode, long leaseLeftMs, String turnId, String source, ThreadRuntime runtime) {

    public RunAttempt key() {
        return new RunAttempt(runId, attempt);
    }
}
