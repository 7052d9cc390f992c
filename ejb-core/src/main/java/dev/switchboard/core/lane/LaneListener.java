package dev.switchboard.core.lane;


/**
 * Told of a lane's run starting and ending, inside the transaction that changes the run (its
 * thread row is locked). The lane is a generic durable queue: what a run means to a conversation
 * (turns, their notifications) is the listener's business.
 */
public interface LaneListener {

    /** The run was claimed and is executing ({@code run} as started). */
    void runStarted(LaneRun run);

    /** The run ended as {@code end} says ({@code run} as it was before): succeeded, or failed (cancelled, abandoned, ...). */
    void runEnded(LaneRun run, RunEnd end);
}
