package dev.switchboard.core.notify;

import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Store;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Writes notifications in the caller's transaction (the transactional outbox): they commit or
 * roll back with the state change they report. A transaction's notifications are collected and
 * written just before it commits, as one multi-row insert — one statement instead of one per
 * notification, and no flush of the persistence context before each — on the transaction's own
 * (shared) connection. After a commit the pump is woken to sequence and deliver them. Must be
 * called inside a transaction.
 */
@Store("notification_outbox")
@ApplicationScoped
public class Outbox {

    private static final MultiRowInsert<OutboxRow> INSERT = new MultiRowInsert<>(
            "INSERT INTO notification_outbox (" + OutboxRow.COLUMNS + ") VALUES ", "(?, ?, ?, ?, ?)",
            (statement, index, row) -> row.bind(statement, index));
    private static final Object PENDING = new Object();

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    OutboxSignal signal;

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

    private void write(List<OutboxRow> rows) {
        try (Connection c = dataSource.getConnection()) {
            INSERT.insert(c, rows);
        } catch (SQLException e) {
            // Thrown from beforeCompletion: the transaction rolls back, the caller sees its commit fail.
            throw new IllegalStateException("writing " + rows.size() + " notifications failed", e);
        }
    }
}
