package dev.switchboard.core.lane;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * What becomes of a run after its end, in the caller's transaction: retention forgets finished runs
 * whole, and a response that was not to be stored has its run's content blanked (the run keeps its
 * place and lifecycle). Both write the lane's rows, so both are the lane's ({@link LaneRows}).
 */
@ApplicationScoped
public class FinishedRuns {

    @Inject
    LaneRows rows;

    /** Deletes those of these runs that are finished (an unfinished one is kept); returns how many. */
    public int forget(List<String> runIds) {
        return runIds.isEmpty() ? 0 : rows.forget(runIds);
    }

    /** Forgets the run's content — its input and output — and keeps the run. */
    public void blankContent(String runId) {
        rows.blankContent(runId);
    }
}
