package dev.switchboard.core.lane;

/**
 * A run claimed for execution: the run and its fence (attempt), how long the lease has left by the
 * database's clock when the claiming transaction read it — a fresh claim has the whole lease, an
 * adopted one what remains of it — and how long the run had waited since its acceptance, by the
 * database's clock (its accept-to-finish latency is that plus the execution). What it executes is
 * in its {@code payload}, what its thread chose to run it with in {@code lanePayload} (read with
 * the lane's lock): both the features'.
 */
public record Claim(String runId, long threadId, int attempt, long leaseLeftMs, long waitedMs, RunPayload payload,
        LanePayload lanePayload) {

    public RunAttempt key() {
        return new RunAttempt(runId, attempt);
    }

    /** The same claim for another attempt (an adoption, a test's late owner). */
    public Claim withAttempt(int attempt) {
        return new Claim(runId, threadId, attempt, leaseLeftMs, waitedMs, payload, lanePayload);
    }
}
