package dev.switchboard.core.lane;

import dev.switchboard.core.thread.ThreadRuntime;
import dev.switchboard.persistence.run.RunKind;

/**
 * A run claimed for execution: everything the engine needs, the fence (attempt), and how long the
 * lease has left by the database's clock when the claiming transaction read it — a fresh claim
 * has the whole lease, an adopted one what remains of it. {@code turnId} is the turn the run belongs
 * to (null for a run without one), named in its progress notifications; {@code source} is the label
 * it came with, {@code kind} what it is (set by the door that ingested it; the lane only carries both);
 * {@code runtime} what its thread chose to run it with, read with the lane's lock; {@code waitedMs}
 * how long the run had waited since its acceptance when claimed, by the database's clock (its
 * accept-to-finish latency is that plus the execution).
 */
public record Claim(String runId, long threadId, int attempt, String userKey, String threadKey,
        String inputText, String deliveryMode, long leaseLeftMs, String turnId, String source, RunKind kind, ThreadRuntime runtime,
        long waitedMs) {

    public RunAttempt key() {
        return new RunAttempt(runId, attempt);
    }
}
