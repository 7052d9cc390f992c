package dev.switchboard.core.notify;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
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
@ApplicationScoped
public class Outbox {

    private static final String INSERT = "INSERT INTO notification_outbox (user_key, thread_key, method, params, created_at) VALUES ";
    private static final String ROW = "(?, ?, ?, ?, ?)";
    /** Rows per statement: keeps statement texts few (the statement cache holds one per size). */
    private static final int MAX_ROWS = 32;
    private static final Object PENDING = new Object();

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    OutboxSignal signal;

    private record Row(String userKey, String threadKey, String method, String params, long createdAt) {
    }

    /** Appends one notification; {@code threadKey} is null for notifications about no thread. */
    public void append(String userKey, String threadKey, String method, JsonObject params) {
        @SuppressWarnings("unchecked")
        List<Row> pending = (List<Row>) transactions.getResource(PENDING);
        if (pending == null) {
            List<Row> rows = new ArrayList<>();
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
                    if (status == Status.STATUS_COMMITTED) {
                        signal.raise();
                    }
                }
            });
            pending = rows;
        }
        // Insertion order is the identity order, which orders one transaction's notifications.
        pending.add(new Row(userKey, threadKey, method, params.toString(), System.currentTimeMillis()));
    }

    private void write(List<Row> rows) {
        try (Connection c = dataSource.getConnection()) {
            for (int from = 0; from < rows.size(); from += MAX_ROWS) {
                List<Row> chunk = rows.subList(from, Math.min(rows.size(), from + MAX_ROWS));
                try (PreparedStatement insert = c.prepareStatement(INSERT + String.join(", ",
                        Collections.nCopies(chunk.size(), ROW)))) {
                    int i = 1;
                    for (Row r : chunk) {
                        insert.setString(i++, r.userKey());
                        if (r.threadKey() == null) {
                            insert.setNull(i++, Types.VARCHAR);
                        } else {
                            insert.setString(i++, r.threadKey());
                        }
                        insert.setString(i++, r.method());
                        insert.setString(i++, r.params());
                        insert.setLong(i++, r.createdAt());
                    }
                    insert.executeUpdate();
                }
            }
        } catch (SQLException e) {
            // Thrown from beforeCompletion: the transaction rolls back, the caller sees its commit fail.
            throw new IllegalStateException("writing " + rows.size() + " notifications failed", e);
        }
    }
}
