package dev.switchboard.core.notify;

import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes notifications in the caller's transaction (the transactional outbox): they commit or
 * roll back with the state change they report. A transaction's notifications are collected and
 * written just before it commits, as one multi-row insert — one statement instead of one per
 * notification, and no flush of the persistence context before each — on the transaction's own
 * (shared) connection. After a commit the pump is woken to sequence and deliver them. Must be
 * called inside a transaction. The sequencer reads what is committed here and deletes what it moved.
 */
@Store("notification_outbox")
@ApplicationScoped
public class Outbox {

    private static final MultiRowInsert<OutboxRow> INSERT = new MultiRowInsert<>(
            "INSERT INTO notification_outbox (" + OutboxRow.COLUMNS + ") VALUES ", "(?, ?, ?, ?, ?)",
            (statement, index, row) -> row.bind(statement, index));
    private static final Object PENDING = new Object();
    private static final String ANY = "SELECT id FROM notification_outbox FETCH FIRST 1 ROWS ONLY";
    private static final String OLDEST = "SELECT id, " + OutboxRow.COLUMNS
            + " FROM notification_outbox ORDER BY id FETCH FIRST ? ROWS ONLY";
    private static final int DELETE_CHUNK = 128;
    private static final String DELETE_LISTED = "DELETE FROM notification_outbox WHERE id IN ("
            + Statements.placeholders(DELETE_CHUNK) + ")";

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Inject
    Statements statements;

    @Inject
    OutboxSignal signal;

    /** A committed row waiting for its seq. */
    record Pending(long id, OutboxRow row) {
    }

    public Outbox() {
    }

    /** Built outside the container (the in-process tests), without the transaction-bound {@link #append}. */
    Outbox(Statements statements) {
        this.statements = statements;
    }

    /** Appends one notification; {@code threadKey} is null for notifications about no thread. */
    public void append(String userKey, String threadKey, String method, JsonObject params) {
        @SuppressWarnings("unchecked")
        List<OutboxRow> pending = (List<OutboxRow>) transactions.getResource(PENDING);
        if (pending == null) {
            List<OutboxRow> rows = new ArrayList<>();
            transactions.putResource(PENDING, rows);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    if (!transactions.getRollbackOnly()) {
                        write(rows);
                    }
                }

                @Override
                public void afterCompletion(int status) {
                    // the pump is woken by the signal's own synchronization, below
                }
            });
            signal.raiseOnCommit(transactions);
            pending = rows;
        }
        // Insertion order is the identity order, which orders one transaction's notifications.
        pending.add(new OutboxRow(userKey, threadKey, method, params.toString(), System.currentTimeMillis()));
    }

    /** Thrown from beforeCompletion, a failure rolls the transaction back: the caller sees its commit fail. */
    void write(List<OutboxRow> rows) {
        statements.insertRows(INSERT, rows, "writing " + rows.size() + " notifications");
    }

    /** Whether any row is there (committed, or the caller's own). */
    boolean anyPending() {
        return !statements.query(ANY, s -> { }, rs -> rs.getLong(1), "probing the outbox").isEmpty();
    }

    /** Up to {@code limit} of the rows there, in insertion order. */
    List<Pending> oldest(int limit) {
        return statements.query(OLDEST, s -> s.setInt(1, limit), rs -> new Pending(rs.getLong(1),
                new OutboxRow(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getLong(6))),
                "reading the outbox");
    }

    /**
     * Deletes exactly the rows read, by id, in chunks padded (with the last id again) to one
     * statement text. Never a range: a row inside a gap of {@code ids} belongs to a transaction
     * that may commit meanwhile, and it must stay for the next stamp.
     */
    void delete(List<Long> ids) {
        for (int from = 0; from < ids.size(); from += DELETE_CHUNK) {
            int start = from;
            statements.update(DELETE_LISTED, s -> {
                for (int i = 0; i < DELETE_CHUNK; i++) {
                    s.setLong(i + 1, ids.get(Math.min(ids.size() - 1, start + i)));
                }
            }, "deleting sequenced rows from the outbox");
        }
    }
}
