package dev.switchboard.core.retention;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The runs retention finds and deletes: finished runs old enough to go, found through an index
 * that only ages (a run's {@code created_at}), never through the unfinished runs' partial indexes
 * the hot path uses. What belongs to a run alone is deleted by its own table's store, in the same
 * transaction ({@link RetentionLedger} lists them). Each method runs in its caller's transaction.
 */
@Store("runs")
@ApplicationScoped
public class RetentionRows {

    /** A finished run old enough to go: its turn and thread (its workspace record lives under the thread). */
    public record AgedRun(String runId, String turnId, long threadId, long createdAt) {
    }

    /*
     * Each batch starts after the last one (a keyset on the aging index): the index entries of the
     * rows a pass has deleted stay in it until a vacuum, and a batch that started from the oldest
     * again would walk every one of them — on ten million runs that made the pruning cost more than
     * the runs it kept up with. A row with the same created_at as the last of a batch waits for the
     * next pass.
     */
    private static final String AGED_RUNS = "SELECT run_id, turn_id, thread_id, created_at FROM runs"
            + " WHERE created_at > ? AND created_at < ? AND kind = ? AND state IN ('succeeded', 'failed')"
            + " AND finished_at < ? ORDER BY created_at LIMIT ?";
    private static final String DELETE_RUNS = "DELETE FROM runs WHERE run_id IN (%s)"
            + " AND state IN ('succeeded', 'failed')";

    @Inject
    Statements statements;

    /**
     * Up to {@code limit} finished runs of {@code kind} created after {@code after} and created and
     * finished before {@code cutoff}, oldest first.
     */
    public List<AgedRun> agedRuns(RunKind kind, long after, long cutoff, int limit) {
        return statements.query(AGED_RUNS, s -> {
            s.setLong(1, after);
            s.setLong(2, cutoff);
            s.setString(3, kind.wire());
            s.setLong(4, cutoff);
            s.setInt(5, limit);
        }, rs -> new AgedRun(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)),
                "finding aged runs of kind " + kind.wire());
    }

    /** Deletes these runs; returns how many (one that is not finished any more — it cannot be — is kept). */
    public int deleteRuns(List<String> runIds) {
        return statements.updateIn(DELETE_RUNS, runIds, "deleting aged runs");
    }
}
