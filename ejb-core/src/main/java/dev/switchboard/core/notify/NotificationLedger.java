package dev.switchboard.core.notify;

import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.notify.NotificationRecord;
import dev.switchboard.persistence.notify.SequencerRecord;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** The outbox's transactions: stamping committed notifications with seqs, and reading them back. */
@Store({"notifications", "notification_outbox", "notification_sequencer"})
@Stateless
public class NotificationLedger {

    private static final String ANY_PENDING = "SELECT id FROM notification_outbox FETCH FIRST 1 ROWS ONLY";
    private static final String LOCK_SEQUENCER = "SELECT last_seq FROM notification_sequencer WHERE id = ? FOR UPDATE";
    private static final String PENDING = "SELECT id, " + OutboxRow.COLUMNS
            + " FROM notification_outbox ORDER BY id FETCH FIRST ? ROWS ONLY";
    private static final String ADVANCE = "UPDATE notification_sequencer SET last_seq = ? WHERE id = ?";
    private static final int DELETE_CHUNK = 128;
    private static final String DELETE_LISTED = "DELETE FROM notification_outbox WHERE id IN ("
            + Statements.placeholders(DELETE_CHUNK) + ")";
    private static final MultiRowInsert<Sequenced> LOG_INSERT = new MultiRowInsert<>(
            "INSERT INTO notifications (seq, " + OutboxRow.COLUMNS + ") VALUES ", "(?, ?, ?, ?, ?, ?)",
            (statement, index, row) -> {
                statement.setLong(index, row.seq());
                return row.row().bind(statement, index + 1);
            });

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    Statements statements;

    private record Sequenced(long seq, OutboxRow row) {
    }

    /** The notifications one stamping transaction sequenced; {@code before} is the last seq before them. */
    public record StampBatch(long before, List<Notification> stamped) {
    }

    /**
     * Moves committed notifications from the outbox into the log, in insertion order, giving each
     * the next seq. Stampers (one per instance) serialise on the sequencer row, so a stamping
     * transaction commits before the next one can read: whoever sees seq N also sees every seq
     * below it — seq order is commit order, and a tailer never skips a notification that commits late.
     * With {@code probeFirst} (a poll, when there is probably nothing to do) the lock is only taken
     * when something is pending, so idle instances do not contend for it.
     * <p>
     * Plain JDBC on the transaction's connection, set-based: a read, one insert per
     * {@link MultiRowInsert#MAX_ROWS} rows and one delete per {@value #DELETE_CHUNK} (through the
     * entity manager it was an insert and a delete per notification).
     */
    public StampBatch stamp(int limit, boolean probeFirst) {
        try (Connection c = dataSource.getConnection()) {
            if (probeFirst && !anyPending(c)) {
                return new StampBatch(-1, List.of()); // nothing to do: no need to take the lock
            }
            long before = lockSequencer(c);
            List<Long> ids = new ArrayList<>();
            List<Sequenced> rows = new ArrayList<>();
            try (PreparedStatement read = c.prepareStatement(PENDING)) {
                read.setInt(1, limit);
                try (ResultSet rs = read.executeQuery()) {
                    long seq = before;
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                        rows.add(new Sequenced(++seq, new OutboxRow(rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getLong(6))));
                    }
                }
            }
            if (rows.isEmpty()) {
                return new StampBatch(before, List.of());
            }
            LOG_INSERT.insert(c, rows);
            deleteFromOutbox(c, ids);
            try (PreparedStatement advance = c.prepareStatement(ADVANCE)) {
                advance.setLong(1, rows.get(rows.size() - 1).seq());
                advance.setInt(2, SequencerRecord.ID);
                advance.executeUpdate();
            }
            return new StampBatch(before, rows.stream().map(r -> Notification.of(r.seq(), r.row())).toList());
        } catch (SQLException e) {
            throw new IllegalStateException("stamping notifications failed", e);
        }
    }

    private static boolean anyPending(Connection c) throws SQLException {
        try (PreparedStatement probe = c.prepareStatement(ANY_PENDING); ResultSet rs = probe.executeQuery()) {
            return rs.next();
        }
    }

    private static long lockSequencer(Connection c) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement(LOCK_SEQUENCER)) {
            lock.setInt(1, SequencerRecord.ID);
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("the notification sequencer row is missing");
                }
                return rs.getLong(1);
            }
        }
    }

    /**
     * Deletes exactly the rows read, by id, in chunks padded (with the last id again) to one
     * statement text. Never a range: a row inside a gap of {@code ids} belongs to a transaction
     * that may commit meanwhile, and it must stay for the next stamp.
     */
    private static void deleteFromOutbox(Connection c, List<Long> ids) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement(DELETE_LISTED)) {
            for (int from = 0; from < ids.size(); from += DELETE_CHUNK) {
                for (int i = 0; i < DELETE_CHUNK; i++) {
                    delete.setLong(i + 1, ids.get(Math.min(ids.size() - 1, from + i)));
                }
                delete.executeUpdate();
            }
        }
    }

    /** Sequenced notifications with {@code after < seq <= upTo}, in seq order. */
    public List<Notification> after(long after, long upTo, int limit) {
        return em.createNamedQuery(NotificationRecord.AFTER, NotificationRecord.class)
                .setParameter("after", after)
                .setParameter("upTo", upTo)
                .setMaxResults(limit)
                .getResultList().stream().map(NotificationLedger::notification).toList();
    }

    /** As {@link #after}, for one user only. */
    public List<Notification> afterForUser(String userKey, long after, long upTo, int limit) {
        return em.createNamedQuery(NotificationRecord.AFTER_FOR_USER, NotificationRecord.class)
                .setParameter("userKey", userKey)
                .setParameter("after", after)
                .setParameter("upTo", upTo)
                .setMaxResults(limit)
                .getResultList().stream().map(NotificationLedger::notification).toList();
    }

    /**
     * Deletes up to {@code limit} log entries older than {@code cutoffMs}, and moves the log's
     * pruned-through mark up to the highest seq deleted, in the same transaction: a replay from
     * before the mark is told of its gap. Returns how many were deleted.
     */
    public int prune(long cutoffMs, int limit) {
        List<Long> old = em.createQuery("SELECT n.seq FROM NotificationRecord n WHERE n.createdAt < :cutoff ORDER BY n.seq",
                        Long.class)
                .setParameter("cutoff", cutoffMs)
                .setMaxResults(limit)
                .getResultList();
        if (old.isEmpty()) {
            return 0;
        }
        em.createQuery("UPDATE SequencerRecord s SET s.prunedThrough = :seq WHERE s.id = :id AND s.prunedThrough < :seq")
                .setParameter("seq", old.get(old.size() - 1))
                .setParameter("id", SequencerRecord.ID)
                .executeUpdate();
        return em.createQuery("DELETE FROM NotificationRecord n WHERE n.seq IN :seqs")
                .setParameter("seqs", old)
                .executeUpdate();
    }

    /** A log entry as stored: {@code params} is its parameters' JSON object text. */
    public record LogEntry(long seq, String userKey, String threadKey, String method, String params, long createdAt) {
    }

    /**
     * The log's entries with {@code after < seq <= upTo} of the given methods, in seq order, at most
     * {@code limit}: what a reader of a few kinds of notification (the webhooks' fan-out) takes,
     * without reading the deltas between them.
     */
    public List<LogEntry> entriesOf(long after, long upTo, List<String> methods, int limit) {
        String sql = "SELECT seq, " + OutboxRow.COLUMNS + " FROM notifications WHERE seq > ? AND seq <= ? AND method IN ("
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

    /** The highest seq handed out; everything up to it is committed. */
    public long lastSeq() {
        return em.find(SequencerRecord.class, SequencerRecord.ID).getLastSeq();
    }

    /** Every seq up to this one may have been pruned: the log keeps only what comes after it. */
    public long prunedThrough() {
        return em.find(SequencerRecord.class, SequencerRecord.ID).getPrunedThrough();
    }

    private static Notification notification(NotificationRecord r) {
        return Notification.of(r.getSeq(), r.getUserKey(), r.getThreadKey(), r.getMethod(), r.getParams(), r.getCreatedAt());
    }
}
