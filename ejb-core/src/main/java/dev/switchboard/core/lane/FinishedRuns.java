package dev.switchboard.core.lane;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;

/**
 * What becomes of a run after its end, in the caller's transaction: retention forgets finished runs
 * whole, and a response that was not to be stored has its run's content blanked (the run keeps its
 * place and lifecycle). Both write the lane's rows, so both are the lane's ({@link LaneRows}).
 */
@ApplicationScoped
public class FinishedRuns {

    @Inject
    LaneRows rows;

    /**
     * Up to {@code limit} finished runs whose {@code by} is {@code value}, created after
     * {@code after} and created and finished before {@code cutoff}, oldest first, each with its
     * {@code carried} value — through the index that only ages (a run's {@code created_at}), never
     * the unfinished runs' partial indexes the hot path uses.
     */
    public List<AgedRun> aged(RunKey by, String value, RunKey carried, long after, long cutoff, int limit) {
        return rows.aged(by, value, carried, after, cutoff, limit);
    }

    /** Those of {@code values} that a run (of any state) still has as its {@code key}. */
    public Set<String> keysWithRuns(RunKey key, List<String> values) {
        return values.isEmpty() ? Set.of() : rows.keysWithRuns(key, values);
    }

    /** Deletes those of these runs that are finished (an unfinished one is kept); returns how many. */
    public int forget(List<String> runIds) {
        return runIds.isEmpty() ? 0 : rows.forget(runIds);
    }

    /** Forgets the run's content — its input and output — and keeps the run. */
    public void blankContent(String runId) {
        rows.blankContent(runId);
    }
}
