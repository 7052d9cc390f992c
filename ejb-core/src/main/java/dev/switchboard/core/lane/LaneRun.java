package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunState;

/**
 * An unfinished run as its lane sees it: its place in the lane, its state and attempts, who claimed
 * it and when it was accepted (epoch ms), and what it carries for the features ({@code payload}).
 */
public record LaneRun(String runId, long threadId, long threadSeq, RunState state, int attempt, int crashes,
        String claimedBy, long createdAt, RunPayload payload) {

    public boolean isExecutingAttempt(int attempt) {
        return state == RunState.EXECUTING && this.attempt == attempt;
    }

    /** The same run after a transition this transaction made. */
    LaneRun moved(RunState state, int attempt, int crashes, String claimedBy) {
        return new LaneRun(runId, threadId, threadSeq, state, attempt, crashes, claimedBy, createdAt, payload);
    }
}
