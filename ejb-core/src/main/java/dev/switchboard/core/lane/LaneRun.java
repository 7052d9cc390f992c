package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunState;

/**
 * An unfinished run as its lane sees it, with its turn as it was when the run was read:
 * whether it is active, when it started and what it was merged into (0 and null without an
 * active turn), and how many runs it has; {@code inputJson} holds structured input items (or null).
 */
public record LaneRun(String runId, long threadId, long threadSeq, String userKey, String threadKey,
        String source, RunState state, String inputText, String deliveryMode, String turnId, int attempt,
        int crashes, String claimedBy, long createdAt, boolean turnActive, long turnStartedAt,
        String turnMergedInto, int turnRuns, String inputJson, RunKind kind) {

    public boolean isExecutingAttempt(int attempt) {
        return state == RunState.EXECUTING && this.attempt == attempt;
    }

    /** The same run after a transition this transaction made. */
    LaneRun moved(RunState state, int attempt, int crashes, String claimedBy) {
        return new LaneRun(runId, threadId, threadSeq, userKey, threadKey, source, state, inputText,
                deliveryMode, turnId, attempt, crashes, claimedBy, createdAt, turnActive, turnStartedAt,
                turnMergedInto, turnRuns, inputJson, kind);
    }
}
