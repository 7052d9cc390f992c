package dev.switchboard.core.notify;

import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The sequenced notifications ({@code notifications}): what the sequencer moves out of the outbox,
 * read back by seq for replays, live feeds and the webhooks' fan-out, and pruned by age.
 */
@Store("notifications")
@ApplicationScoped
public class NotificationLog {

    private static final String COLUMNS = "seq, " + OutboxRow.COLUMNS;
    private static final MultiRowInsert<Sequenced> INSERT = new MultiRowInsert<>(
            "INSERT INTO notifications (" + COLUMNS + ") VALUES ", "(?, ?, ?, ?, ?, ?)",
            (statement, index, row) -> {
                statement.setLong(index, row.seq());
                return row.row().bind(statement, index + 1);
            });
    private static final String AFTER = "SELECT " + COLUMNS + " FROM notifications WHERE seq > ? AND seq <= ?"
            + " ORDER BY seq FETCH FIRST ? ROWS ONLY";
    private static final String AFTER_FOR_USER = "SELECT " + COLUMNS + " FROM notifications"
            + " WHERE user_key = ? AND seq > ? AND seq <= ? ORDER BY seq FETCH FIRST ? ROWS ONLY";
    private static final String OLDEST = "SELECT seq FROM notifications WHERE created_at < ? ORDER BY seq FETCH FIRST ? ROWS ONLY";

    /** A log entry as stored: {@code params} is its parameters' JSON object text. */
    public record LogEntry(long seq, String userKey, String threadKey, String method, String params, long createdAt) {
    }

    /** An outbox row with the seq the sequencer gave it. */
    record Sequenced(long seq, OutboxRow row) {
    }

    @Inject
    Statements statements;

    public NotificationLog() {
    }

    /** Built outside the container (the in-process tests). */
    NotificationLog(Statements statements) {
        this.statements = statements;
    }

    void insert(List<Sequenced> rows) {
        statements.insertRows(INSERT, rows, "writing " + rows.size() + " sequenced notifications");
    }

    /** Entries with {@code after < seq <= upTo}, in seq order, at most {@code limit}. */
    List<Notification> after(long after, long upTo, int limit) {
        return statements.query(AFTER, s -> {
            s.setLong(1, after);
            s.setLong(2, upTo);
            s.setInt(3, limit);
        }, rs -> Notification.of(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getLong(6)), "reading the notification log");
    }

    /** As {@link #after}, for one user only. */
    List<Notification> afterForUser(String userKey, long after, long upTo, int limit) {
        return statements.query(AFTER_FOR_USER, s -> {
            s.setString(1, userKey);
            s.setLong(2, after);
            s.setLong(3, upTo);
            s.setInt(4, limit);
        }, rs -> Notification.of(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getLong(6)), "reading a user's notifications");
    }

    /**
     * The entries with {@code after < seq <= upTo} of the given methods, in seq order, at most
     * {@code limit}: what a reader of a few kinds of notification (the webhooks' fan-out) takes,
     * without reading the deltas between them.
     */
    public List<LogEntry> entriesOf(long after, long upTo, List<String> methods, int limit) {
        String sql = "SELECT " + COLUMNS + " FROM notifications WHERE seq > ? AND seq <= ? AND method IN ("
                + Statements.placeholders(methods.size()) + ") ORDER BY seq FETCH FIRST ? ROWS ONLY";
        return statements.query(sql, read -> {
            int i = 1;
            read.setLong(i++, after);
            read.setLong(i++, upTo);
            for (String method : methods) {
                read.setString(i++, method);
            }
            read.setInt(i, limit);
        }, rs -> new LogEntry(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getLong(6)), "reading the notification log");
    }

    /** The seqs of up to {@code limit} entries written before {@code cutoffMs}, oldest first. */
    List<Long> oldest(long cutoffMs, int limit) {
        return statements.query(OLDEST, s -> {
            s.setLong(1, cutoffMs);
            s.setInt(2, limit);
        }, rs -> rs.getLong(1), "finding notifications past their retention");
    }

    int delete(List<Long> seqs) {
        return statements.updateIn("DELETE FROM notifications WHERE seq IN (%s)", seqs, "pruning notifications");
    }
}
