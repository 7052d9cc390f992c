package dev.switchboard.core.retention;

import dev.switchboard.persistence.run.RunKind;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.List;

/** Retention's transactions: each batch is one, so it holds its locks for milliseconds. */
@Stateless
public class RetentionLedger {

    @Inject
    RetentionRows rows;

    /**
     * Deletes up to {@code limit} finished runs of {@code kind} created after {@code after} and
     * older than {@code cutoff}; returns those found, oldest first.
     */
    public List<RetentionRows.AgedRun> pruneRuns(RunKind kind, long after, long cutoff, int limit) {
        List<RetentionRows.AgedRun> aged = rows.agedRuns(kind, after, cutoff, limit);
        rows.deleteRuns(aged);
        return aged;
    }

    /** Deletes up to {@code limit} aged thread items after id {@code after}; returns their ids, in order. */
    public List<Long> pruneItems(long after, long cutoff, int limit) {
        return rows.deleteItems(after, cutoff, limit);
    }

    public int pruneJournal(long cutoff, int limit) {
        return rows.deleteJournal(cutoff, limit);
    }

    public List<Long> idleWorkspaces(long cutoff, long afterId, int limit) {
        return rows.idleWorkspaces(cutoff, afterId, limit);
    }

    /**
     * Resets the thread's workspace line to its start and, while its row stays locked (no turn can
     * claim the lane before this commits), runs {@code retire} (which moves its repository aside).
     * False, and nothing done, when the thread is not idle any more.
     */
    public boolean resetWorkspace(long threadId, long cutoff, Runnable retire) {
        if (!rows.resetWorkspace(threadId, cutoff)) {
            return false;
        }
        retire.run();
        return true;
    }
}
