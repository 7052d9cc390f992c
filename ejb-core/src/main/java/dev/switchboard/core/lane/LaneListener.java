package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunRecord;

/**
 * Told of a lane's run starting and ending, inside the transaction that changes the run (its
 * thread row is locked). The lane is a generic durable queue: what a run means to a conversation
 * (turns, their notifications) is the listener's business.
 */
public interface LaneListener {

    /** The run was claimed and is executing. */
    void runStarted(RunRecord run);

    /** The run reached a terminal state (succeeded, failed, cancelled, abandoned). */
    void runEnded(RunRecord run);
}
