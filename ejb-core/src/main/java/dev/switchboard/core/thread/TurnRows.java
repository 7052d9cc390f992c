package dev.switchboard.core.thread;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every statement on turns, in plain JDBC in the caller's transaction, like the lane's: a
 * turn call changes a lane's runs and turns through the same connection and the same statements
 * as the lane itself, so nothing waits in a persistence context to be flushed before the lane reads
 * it. Callers hold the thread's lane lock before changing a turn. A turn's runs are the lane's to
 * read ({@code TurnRuns} puts the two together).
 */
@Store("turns")
@ApplicationScoped
public class TurnRows {

    /** A turn's states: active until its runs end, then completed or interrupted. */
    public static final String ACTIVE = "active";
    public static final String COMPLETED = "completed";
    public static final String INTERRUPTED = "interrupted";

    private static final String INSERT = "INSERT INTO turns (turn_id, user_key, thread_id, thread_key, state,"
            + " started_at) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String READ = "SELECT turn_id, user_key, thread_id, thread_key, state, outcome, message,"
            + " merged_into, started_at, ended_at FROM turns WHERE turn_id = ?";
    private static final String ACTIVE_ON_THREAD = "SELECT turn_id, user_key, thread_id, thread_key, state, outcome,"
            + " message, merged_into, started_at, ended_at FROM turns WHERE thread_id = ? AND state = 'active'"
            + " ORDER BY started_at, turn_id";
    /** Counted per thread of a page of threads (its ids or keys, {@code %s}), so the lists are short. */
    private static final String ACTIVE_PER_THREAD_ID = "SELECT thread_id, count(*) FROM turns WHERE user_key = ?"
            + " AND state = 'active' AND thread_id IN (%s) GROUP BY thread_id";
    private static final String ACTIVE_PER_THREAD_KEY = "SELECT thread_key, count(*) FROM turns WHERE user_key = ?"
            + " AND state = 'active' AND thread_key IN (%s) GROUP BY thread_key";
    private static final String ANY_ACTIVE = "SELECT 1 FROM turns WHERE thread_id = ? AND state = 'active'"
            + " FETCH FIRST 1 ROWS ONLY";
    private static final String MERGE = "UPDATE turns SET merged_into = ? WHERE turn_id = ? AND state = 'active'";
    private static final String END = "UPDATE turns SET state = ?, outcome = ?, message = ?, ended_at = ?"
            + " WHERE turn_id = ? AND state = 'active'";

    @Inject
    Statements statements;

    public TurnRows() {
    }

    /** Built outside the container (the in-process tests). */
    public TurnRows(Statements statements) {
        this.statements = statements;
    }

    /** A turn as stored; {@code endedAt} null while it is active. */
    public record TurnRow(String turnId, String userKey, long threadId, String threadKey, String state, String outcome,
            String message, String mergedInto, long startedAt, Long endedAt) {

        public boolean isActive() {
            return ACTIVE.equals(state);
        }
    }

    /** Inserts a new, active turn. */
    public void insert(String turnId, String userKey, long threadId, String threadKey, long startedAt) {
        statements.update(INSERT, s -> {
            s.setString(1, turnId);
            s.setString(2, userKey);
            s.setLong(3, threadId);
            s.setString(4, threadKey);
            s.setString(5, ACTIVE);
            s.setLong(6, startedAt);
        }, "storing turn " + turnId);
    }

    /** The turn; null when there is none. */
    public TurnRow read(String turnId) {
        List<TurnRow> rows = statements.query(READ, s -> s.setString(1, turnId), TurnRows::row, "reading turn " + turnId);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The thread's active turns, oldest first. */
    public List<TurnRow> activeOnThread(long threadId) {
        return statements.query(ACTIVE_ON_THREAD, s -> s.setLong(1, threadId), TurnRows::row,
                "reading the active turns of thread " + threadId);
    }

    /** How many active turns each of the user's threads {@code threadIds} has (absent: none). */
    public Map<Long, Long> activeCounts(String userKey, List<Long> threadIds) {
        Map<Long, Long> counts = new HashMap<>();
        countActive(ACTIVE_PER_THREAD_ID, userKey, threadIds, (rs, n) -> counts.put(rs.getLong(1), n));
        return counts;
    }

    /** How many active turns each of the user's threads {@code threadKeys} has (absent: none). */
    public Map<String, Long> activeCountsByKey(String userKey, List<String> threadKeys) {
        Map<String, Long> counts = new HashMap<>();
        countActive(ACTIVE_PER_THREAD_KEY, userKey, threadKeys, (rs, n) -> counts.put(rs.getString(1), n));
        return counts;
    }

    private interface CountRow {
        void take(ResultSet rs, long count) throws SQLException;
    }

    private void countActive(String sqlFormat, String userKey, List<?> threads, CountRow row) {
        if (threads.isEmpty()) {
            return;
        }
        statements.query(String.format(sqlFormat, Statements.placeholders(threads.size())), s -> {
            s.setString(1, userKey);
            for (int i = 0; i < threads.size(); i++) {
                s.setObject(i + 2, threads.get(i));
            }
        }, rs -> {
            row.take(rs, rs.getLong(2));
            return null;
        }, "counting the active turns of " + threads.size() + " threads");
    }

    private static TurnRow row(ResultSet rs) throws SQLException {
        return new TurnRow(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getLong(9), Statements.getLong(rs, 10));
    }

    /** Whether the thread has an active turn. */
    public boolean anyActive(long threadId) {
        return !statements.query(ANY_ACTIVE, s -> s.setLong(1, threadId), rs -> rs.getInt(1),
                "reading whether thread " + threadId + " has an active turn").isEmpty();
    }

    /** Marks the active turn as merged into {@code newerTurnId} (it ends superseded). */
    public void mergeInto(String turnId, String newerTurnId) {
        statements.updateOne(MERGE, s -> {
            s.setString(1, newerTurnId);
            s.setString(2, turnId);
        }, "merging turn " + turnId + " into " + newerTurnId);
    }

    /** Ends the active turn, {@code completed} or else {@code interrupted}. */
    public void end(String turnId, boolean completed, String outcome, String message, long now) {
        statements.updateOne(END, s -> {
            s.setString(1, completed ? COMPLETED : INTERRUPTED);
            s.setString(2, outcome);
            s.setString(3, message);
            s.setLong(4, now);
            s.setString(5, turnId);
        }, "ending turn " + turnId);
    }

    /**
     * Retention: deletes those of these turns that have ended (the caller knows no run of theirs is
     * left). No run is ever added to an ended turn — a steer, a resumption or a requeue names an
     * active one, or a new turn — so what the caller read stays true until this runs.
     */
    public int deleteEnded(List<String> turnIds) {
        return statements.updateIn("DELETE FROM turns WHERE turn_id IN (%s) AND state <> 'active'", turnIds,
                "deleting aged turns");
    }
}
