package dev.switchboard.core.retention;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Every deletion retention makes, in one place, so that what a run leaves behind is listed once: a
 * run goes with its idempotency key, its streamed text, its stored response, the call slots it
 * made and — when it was a delegation tree's root — the tree's paths; a turn goes once none of its
 * runs is left. The batches are found through indexes that only age (a run's {@code created_at},
 * a thread item's identity), never through the unfinished runs' partial indexes the hot path uses.
 * Each method runs in its caller's transaction.
 */
@Store({"message_ingest", "path_calls", "path_journal", "path_registry", "responses", "run_text", "runs", "thread_items", "threads", "turns"})
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
    private static final String OLDEST_ITEMS = "SELECT id FROM thread_items WHERE id > ? AND created_at < ?"
            + " ORDER BY id LIMIT ?";
    /* A thread with a workspace whose lane nobody holds and that has had no run since the cutoff (found
       through the (thread_id, thread_seq) unique index), by id after the last one looked at. */
    private static final String IDLE_WORKSPACES = "SELECT t.id FROM threads t WHERE t.id > ?"
            + " AND t.workspace_head IS NOT NULL AND t.lease_owner IS NULL AND t.created_at < ?"
            + " AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.id AND r.created_at >= ?)"
            + " ORDER BY t.id LIMIT ?";
    private static final String RESET_WORKSPACE = "UPDATE threads SET workspace_head = '' WHERE id = ?"
            + " AND workspace_head IS NOT NULL AND lease_owner IS NULL"
            + " AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = threads.id AND r.created_at >= ?)";
    private static final String DELETE_ITEMS = "DELETE FROM thread_items WHERE id IN (%s)";
    private static final String DELETE_KEYS = "DELETE FROM message_ingest WHERE run_id IN (%s)";
    private static final String DELETE_TEXT = "DELETE FROM run_text WHERE run_id IN (%s)";
    private static final String DELETE_RESPONSES = "DELETE FROM responses WHERE run_id IN (%s)";
    private static final String DELETE_CALLS = "DELETE FROM path_calls WHERE caller_run_id IN (%s)";
    private static final String DELETE_TREES = "DELETE FROM path_registry WHERE root_run_id IN (%s)";
    private static final String DELETE_RUNS = "DELETE FROM runs WHERE run_id IN (%s)"
            + " AND state IN ('succeeded', 'failed')";
    private static final String DELETE_TURNS = "DELETE FROM turns WHERE turn_id IN (%s) AND state <> 'active'"
            + " AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.turn_id = turns.turn_id)";
    private static final String OLDEST_JOURNAL = "SELECT msg_id FROM path_journal WHERE ts < ? ORDER BY ts LIMIT ?";
    private static final String DELETE_JOURNAL = "DELETE FROM path_journal WHERE msg_id IN (%s)";

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

    /**
     * Deletes these runs with what belongs to them alone, then their turns left without a run.
     * Returns the runs deleted (one that is not finished any more — it cannot be — is kept).
     */
    public int deleteRuns(List<AgedRun> runs) {
        if (runs.isEmpty()) {
            return 0;
        }
        List<String> ids = runs.stream().map(AgedRun::runId).toList();
        for (String sql : List.of(DELETE_KEYS, DELETE_TEXT, DELETE_RESPONSES, DELETE_CALLS, DELETE_TREES)) {
            deleteIn(sql, ids);
        }
        int deleted = deleteIn(DELETE_RUNS, ids);
        List<String> turns = runs.stream().map(AgedRun::turnId).filter(t -> t != null).distinct().toList();
        if (!turns.isEmpty()) {
            deleteIn(DELETE_TURNS, turns);
        }
        return deleted;
    }

    /**
     * Deletes up to {@code limit} of the oldest thread items after id {@code after} created before
     * {@code cutoff}; returns their ids, in order.
     */
    public List<Long> deleteItems(long after, long cutoff, int limit) {
        List<Long> ids = statements.query(OLDEST_ITEMS, s -> {
            s.setLong(1, after);
            s.setLong(2, cutoff);
            s.setInt(3, limit);
        }, rs -> rs.getLong(1), "finding aged thread items");
        if (!ids.isEmpty()) {
            statements.update(String.format(DELETE_ITEMS, Statements.placeholders(ids.size())), s -> {
                for (int i = 0; i < ids.size(); i++) {
                    s.setLong(i + 1, ids.get(i));
                }
            }, "deleting aged thread items");
        }
        return ids;
    }

    /** Deletes up to {@code limit} delegation journal entries older than {@code cutoff}; returns how many. */
    public int deleteJournal(long cutoff, int limit) {
        List<String> ids = statements.query(OLDEST_JOURNAL, s -> {
            s.setLong(1, cutoff);
            s.setInt(2, limit);
        }, rs -> rs.getString(1), "finding the aged delegation journal");
        return ids.isEmpty() ? 0 : deleteIn(DELETE_JOURNAL, ids);
    }

    /**
     * Up to {@code limit} threads with a workspace, idle since {@code cutoff}, nobody holding their
     * lane, with ids above {@code afterId}, in id order.
     */
    public List<Long> idleWorkspaces(long cutoff, long afterId, int limit) {
        return statements.query(IDLE_WORKSPACES, s -> {
            s.setLong(1, afterId);
            s.setLong(2, cutoff);
            s.setLong(3, cutoff);
            s.setInt(4, limit);
        }, rs -> rs.getLong(1), "finding idle workspaces");
    }

    /**
     * Moves the thread's workspace line back to its start when it is still idle (its row locked by
     * the update until the caller's transaction ends, so no turn claims it meanwhile); false when a
     * run came or its lane was taken since it was found.
     */
    public boolean resetWorkspace(long threadId, long cutoff) {
        return statements.update(RESET_WORKSPACE, s -> {
            s.setLong(1, threadId);
            s.setLong(2, cutoff);
        }, "resetting the workspace of thread " + threadId) == 1;
    }

    private int deleteIn(String sql, List<String> ids) {
        return statements.update(String.format(sql, Statements.placeholders(ids.size())), s -> bind(s, ids),
                "deleting aged rows");
    }

    private static void bind(PreparedStatement s, List<String> ids) throws SQLException {
        for (int i = 0; i < ids.size(); i++) {
            s.setString(i + 1, ids.get(i));
        }
    }
}
