package dev.switchboard.core.lane;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one way a run ends, whoever decides it — its execution's finish, a cancel, an interrupt, a
 * supersede, an abandon after too many crashes: the end is written, the listener (turns) is told,
 * and every feature's {@link RunEnding#ended} says what it means for other lanes.
 */
@ApplicationScoped
class RunEnds {

    @Inject
    LaneRows rows;

    @Inject
    LaneListener listener;

    @Inject
    LaneFeatures features;

    /** Ends the unfinished {@code run} (as read in this transaction, its lane locked) as {@code end} says. */
    LaneEffects end(LaneRun run, RunEnd end, int attempt, boolean finished, long now) {
        rows.end(run.runId(), end, now);
        listener.runEnded(run, end);
        return features.ended(new RunEnding.Ended(run, end, attempt, finished, now));
    }
}
