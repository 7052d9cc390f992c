package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunState;
import java.util.Objects;

/**
 * A run for the lane to add as its thread's next ({@link Lanes#enqueue}): its row as first written.
 * Queued, or — {@code startedBy} an owner, when the lane is idle and that owner has a slot — started
 * in the same transaction as its first attempt. Its {@code payload} the lane stores as given.
 */
public record NewRun(String runId, long threadId, long threadSeq, long createdAt, String startedBy, RunPayload payload) {

    public NewRun {
        Objects.requireNonNull(payload, "payload");
    }

    /** A queued run. */
    public static NewRun queued(String runId, long threadId, long threadSeq, long createdAt, RunPayload payload) {
        return new NewRun(runId, threadId, threadSeq, createdAt, null, payload);
    }

    /** The same run started by {@code owner} as its first attempt, when it is added; a run is started once. */
    public NewRun startedBy(String owner) {
        if (startedBy != null) {
            throw new IllegalStateException("run " + runId + " is started already, by " + startedBy);
        }
        return new NewRun(runId, threadId, threadSeq, createdAt, owner, payload);
    }

    public RunState state() {
        return startedBy == null ? RunState.QUEUED : RunState.EXECUTING;
    }

    public int attempt() {
        return startedBy == null ? 0 : 1;
    }

    /** When it started: when it was added, if it was started then. */
    public Long startedAt() {
        return startedBy == null ? null : createdAt;
    }
}
