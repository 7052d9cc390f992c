package dev.switchboard.core.lane;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The lane's runs as the features read them — a run, a lane's page of runs, the runs of a key —
 * whatever became of them, in the caller's transaction. Reads only: a run is written by the lane's
 * API ({@link Lanes}, {@link LaneLedger}, {@link FinishedRuns}). The features find runs by the
 * {@link RunKey}s they name, and decode what a run carries themselves ({@link RunRow#payload}).
 */
@ApplicationScoped
public class RunReads {

    @Inject
    LaneRows rows;

    /** The run's row; empty when there is none (or {@code runId} is null). */
    public Optional<RunRow> run(String runId) {
        return runId == null ? Optional.empty() : Optional.ofNullable(rows.stored(runId));
    }

    /** Up to {@code limit} of the lane's runs after {@code afterSeq} (numbers start at 1), in lane order. */
    public List<RunRow> after(long threadId, long afterSeq, int limit) {
        return rows.storedAfter(threadId, afterSeq, limit);
    }

    /** The runs whose {@code key} is one of {@code values}, in lane order (by thread, then number). */
    public List<RunRow> with(RunKey key, Collection<String> values) {
        return values.isEmpty() ? List.of() : rows.storedWith(key, List.copyOf(values));
    }

    /** Those of these threads with a run accepted at or after {@code since}. */
    public Set<Long> busySince(List<Long> threadIds, long since) {
        return threadIds.isEmpty() ? Set.of() : rows.busySince(threadIds, since);
    }

    /** The outputs of the thread's runs that match the SQL LIKE pattern {@code pattern}, whatever became of the runs. */
    public List<String> outputsLike(long threadId, String pattern) {
        return rows.outputsLike(threadId, pattern);
    }
}
