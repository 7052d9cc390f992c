package dev.switchboard.core.history;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The {@code thread_items} table in plain JDBC. {@link #append} runs in the caller's transaction —
 * the one that records the run's result — as one multi-row insert; the reads run in the caller's
 * transaction if there is one, else on their own. A thread's items are ordered by {@code seq}
 * (the row's identity): a thread's runs end one at a time, under its lane's lock.
 */
@Store("thread_items")
@ApplicationScoped
public class ThreadItems {

    private static final MultiRowInsert<Row> INSERT = new MultiRowInsert<>(
            "INSERT INTO thread_items (thread_id, item_id, run_id, turn_id, item, created_at) VALUES ",
            "(?, ?, ?, ?, ?, ?)", (s, i, row) -> {
                s.setLong(i, row.threadId());
                s.setString(i + 1, row.item().getString("id"));
                s.setString(i + 2, row.runId());
                s.setString(i + 3, row.turnId());
                s.setString(i + 4, row.item().toString());
                s.setLong(i + 5, row.createdAt());
                return i + 6;
            });
    private static final String AFTER = "SELECT id, item_id, run_id, turn_id, item, created_at FROM thread_items"
            + " WHERE thread_id = ? AND id > ? ORDER BY id FETCH FIRST ? ROWS ONLY";
    private static final String SELECT = "SELECT id, item_id, run_id, turn_id, item, created_at FROM thread_items";
    private static final String RECENT_UP_TO = SELECT
            + " WHERE thread_id = ? AND id <= ? ORDER BY id DESC FETCH FIRST ? ROWS ONLY";
    private static final String COUNT_UP_TO = "SELECT COUNT(*) FROM thread_items WHERE thread_id = ? AND id <= ?";

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    private Statements statements;

    public ThreadItems() {
    }

    /** Built outside the container (the in-process tests). */
    public ThreadItems(DataSource dataSource) {
        this.dataSource = dataSource;
        init();
    }

    @PostConstruct
    void init() {
        statements = new Statements(dataSource);
    }

    private record Row(long threadId, String runId, String turnId, JsonObject item, long createdAt) {
    }

    /** Appends the run's items (each with an {@code id}) to the thread's history, in order. */
    public void append(long threadId, String runId, String turnId, List<JsonObject> items, long now) {
        if (items.isEmpty()) {
            return;
        }
        List<Row> rows = items.stream().map(item -> new Row(threadId, runId, turnId, item, now)).toList();
        statements.insertRows(INSERT, rows, "storing the items of run " + runId);
    }

    /** The thread's items after {@code afterSeq} in order, up to {@code limit}. */
    public List<StoredItem> after(long threadId, long afterSeq, int limit) {
        return statements.query(AFTER, s -> {
            s.setLong(1, threadId);
            s.setLong(2, afterSeq);
            s.setInt(3, limit);
        }, ThreadItems::item, "reading the items of thread " + threadId);
    }

    /** The thread's latest {@code limit} items, oldest first. */
    public List<StoredItem> recent(long threadId, int limit) {
        return recentUpTo(threadId, Long.MAX_VALUE, limit);
    }

    /** The thread's latest {@code limit} items up to {@code upToSeq}, oldest first. */
    public List<StoredItem> recentUpTo(long threadId, long upToSeq, int limit) {
        if (limit == 0) {
            return List.of();
        }
        List<StoredItem> items = new ArrayList<>(statements.query(RECENT_UP_TO, s -> {
            s.setLong(1, threadId);
            s.setLong(2, upToSeq);
            s.setInt(3, limit);
        }, ThreadItems::item, "reading the items of thread " + threadId));
        Collections.reverse(items);
        return items;
    }

    /** How many items the thread holds up to {@code upToSeq}. */
    public long countUpTo(long threadId, long upToSeq) {
        return statements.query(COUNT_UP_TO, s -> {
            s.setLong(1, threadId);
            s.setLong(2, upToSeq);
        }, rs -> rs.getLong(1), "counting the items of thread " + threadId).get(0);
    }

    /** The latest {@code limit} items of the thread inside {@code window}, oldest first. */
    public List<StoredItem> recent(long threadId, int limit, ContextWindow window) {
        if (window.equals(ContextWindow.ALL)) {
            return recent(threadId, limit);
        }
        if (limit == 0) {
            return List.of();
        }
        List<StoredItem> items = new ArrayList<>(statements.query(SELECT + " WHERE thread_id = ? AND " + inWindow(window)
                + " ORDER BY id DESC FETCH FIRST ? ROWS ONLY", s -> {
                    int i = bindWindow(s, 1, threadId, window);
                    s.setInt(i, limit);
                }, ThreadItems::item, "reading the context of thread " + threadId));
        if (window.head() != null) { // read newest first: the head goes last, so first once reversed
            items.add(new StoredItem(0, window.head().getString("id", "head"), "", null, window.head(), 0));
        }
        Collections.reverse(items);
        return items;
    }

    /** How many runs (turns) have items inside {@code window}. */
    public int runsIn(long threadId, ContextWindow window) {
        return statements.query("SELECT COUNT(DISTINCT run_id) FROM thread_items WHERE thread_id = ? AND "
                + inWindow(window), s -> bindWindow(s, 1, threadId, window), rs -> rs.getInt(1),
                "counting the turns of thread " + threadId).get(0);
    }

    /** The thread's items inside {@code window} (not its head), by run, runs in order. */
    public List<List<StoredItem>> itemsByRun(long threadId, ContextWindow window) {
        List<List<StoredItem>> runs = new ArrayList<>();
        String lastRun = null;
        for (StoredItem item : statements.query(SELECT + " WHERE thread_id = ? AND " + inWindow(window) + " ORDER BY id",
                s -> bindWindow(s, 1, threadId, window), ThreadItems::item, "reading the turns of thread " + threadId)) {
            if (!item.runId().equals(lastRun)) {
                runs.add(new ArrayList<>());
                lastRun = item.runId();
            }
            runs.get(runs.size() - 1).add(item);
        }
        return runs;
    }

    /** The first item a turn added to the thread, if it added any. */
    public Optional<Long> firstOf(long threadId, String turnId) {
        return statements.query("SELECT MIN(id) FROM thread_items WHERE thread_id = ? AND turn_id = ?", s -> {
            s.setLong(1, threadId);
            s.setString(2, turnId);
        }, rs -> Statements.getLong(rs, 1), "reading the items of turn " + turnId).stream()
                .filter(java.util.Objects::nonNull).findFirst();
    }

    /** The thread's newest item seq, 0 when it has none. */
    public long lastSeq(long threadId) {
        Long last = statements.query("SELECT MAX(id) FROM thread_items WHERE thread_id = ?", s -> s.setLong(1, threadId),
                rs -> Statements.getLong(rs, 1), "reading the items of thread " + threadId).get(0);
        return last == null ? 0 : last;
    }

    private static String inWindow(ContextWindow window) {
        StringBuilder sql = new StringBuilder("(id >= ?");
        window.ranges().forEach(r -> sql.append(" OR id BETWEEN ? AND ?"));
        return sql.append(')').toString();
    }

    private static int bindWindow(java.sql.PreparedStatement s, int first, long threadId, ContextWindow window)
            throws SQLException {
        int i = first;
        s.setLong(i++, threadId);
        s.setLong(i++, window.openFrom());
        for (ContextWindow.Range r : window.ranges()) {
            s.setLong(i++, r.first());
            s.setLong(i++, r.last());
        }
        return i;
    }

    private static StoredItem item(ResultSet rs) throws SQLException {
        try (JsonReader reader = Jsons.createReader(new StringReader(rs.getString(5)))) {
            return new StoredItem(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), reader.readObject(),
                    rs.getLong(6));
        }
    }

    /**
     * Retention: deletes up to {@code limit} of the oldest items after id {@code after} created
     * before {@code cutoff} (by the identity, an index that only ages); returns their ids, in order.
     */
    public List<Long> deleteOldest(long after, long cutoff, int limit) {
        List<Long> ids = statements.query("SELECT id FROM thread_items WHERE id > ? AND created_at < ? ORDER BY id LIMIT ?", s -> {
            s.setLong(1, after);
            s.setLong(2, cutoff);
            s.setInt(3, limit);
        }, rs -> rs.getLong(1), "finding aged thread items");
        statements.updateIn("DELETE FROM thread_items WHERE id IN (%s)", ids, "deleting aged thread items");
        return ids;
    }

    /** Forgets the items one run added (a response that was not to be stored). */
    public int deleteOfRun(String runId) {
        return statements.update("DELETE FROM thread_items WHERE run_id = ?", s -> s.setString(1, runId),
                "forgetting the items of run " + runId);
    }
}
