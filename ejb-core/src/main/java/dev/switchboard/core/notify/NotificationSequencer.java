package dev.switchboard.core.notify;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The single row of {@code notification_sequencer}: the last seq handed out, which stampers lock
 * to take turns, and the mark up to which the log may have been pruned.
 */
@Store("notification_sequencer")
@ApplicationScoped
public class NotificationSequencer {

    private static final int ID = 1;
    private static final String LOCK = "SELECT last_seq FROM notification_sequencer WHERE id = ? FOR UPDATE";
    private static final String ADVANCE = "UPDATE notification_sequencer SET last_seq = ? WHERE id = ?";
    private static final String LAST_SEQ = "SELECT last_seq FROM notification_sequencer WHERE id = ?";
    private static final String PRUNED_THROUGH = "SELECT pruned_through FROM notification_sequencer WHERE id = ?";
    private static final String MARK_PRUNED = "UPDATE notification_sequencer SET pruned_through = ?"
            + " WHERE id = ? AND pruned_through < ?";

    @Inject
    Statements statements;

    public NotificationSequencer() {
    }

    /** Built outside the container (the in-process tests). */
    NotificationSequencer(Statements statements) {
        this.statements = statements;
    }

    /** Locks the row until the transaction ends (stampers serialise on it); returns the last seq. */
    long lock() {
        return single(LOCK, "locking the notification sequencer");
    }

    void advance(long lastSeq) {
        statements.updateOne(ADVANCE, s -> {
            s.setLong(1, lastSeq);
            s.setInt(2, ID);
        }, "advancing the notification sequencer");
    }

    /** The highest seq handed out; everything up to it is committed. */
    long lastSeq() {
        return single(LAST_SEQ, "reading the last notification seq");
    }

    /** Every seq up to this one may have been pruned: the log keeps only what comes after it. */
    long prunedThrough() {
        return single(PRUNED_THROUGH, "reading the notification log's pruned mark");
    }

    /** Moves the pruned mark up to {@code seq} (never down). */
    void markPruned(long seq) {
        statements.update(MARK_PRUNED, s -> {
            s.setLong(1, seq);
            s.setInt(2, ID);
            s.setLong(3, seq);
        }, "marking the notification log pruned");
    }

    private long single(String sql, String what) {
        List<Long> rows = statements.query(sql, s -> s.setInt(1, ID), rs -> rs.getLong(1), what);
        if (rows.isEmpty()) {
            throw new IllegalStateException("the notification sequencer row is missing");
        }
        return rows.get(0);
    }
}
