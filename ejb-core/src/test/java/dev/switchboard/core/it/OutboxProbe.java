package dev.switchboard.core.it;

import dev.switchboard.core.notify.Outbox;
import jakarta.annotation.Resource;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** In-container test helper: writes to the outbox in a transaction whose commit the test controls. */
@Stateless
public class OutboxProbe {

    @Inject
    Outbox outbox;

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    /**
     * On a container thread of its own: appends a marker notification and lets the commit begin —
     * the outbox inserts its row just before completion — then holds the transaction, after the
     * insert and before the commit, until {@code release} opens. {@code insertedRows} is set to the
     * number of the marker's rows this transaction sees in the outbox while it is held (1: inserted).
     */
    @Asynchronous
    public Future<Void> appendAndHold(String userKey, String marker, CountDownLatch held, CountDownLatch release,
            AtomicInteger insertedRows) {
        outbox.append(userKey, "sequencer-test", "test/marker", Json.createObjectBuilder().add("marker", marker).build());
        // Registered after the outbox's synchronization, so it runs after the outbox's insert.
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                insertedRows.set(countOwnRows(marker));
                held.countDown();
                try {
                    if (!release.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never released the held transaction");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void afterCompletion(int status) {
            }
        });
        return CompletableFuture.completedFuture(null);
    }

    /** The marker's outbox rows as this transaction sees them (its own uncommitted insert included). */
    private int countOwnRows(String marker) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement count = c.prepareStatement(
                        "SELECT COUNT(*) FROM notification_outbox WHERE params LIKE ?")) {
            count.setString(1, "%" + marker + "%");
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Appends a marker notification and commits. */
    public void append(String userKey, String marker) {
        outbox.append(userKey, "sequencer-test", "test/marker", Json.createObjectBuilder().add("marker", marker).build());
    }

    /** Makes the user's sequenced notifications up to {@code throughSeq} look a year old; returns how many. */
    public int age(String userKey, long throughSeq) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement update = c.prepareStatement(
                        "UPDATE notifications SET created_at = created_at - ? WHERE user_key = ? AND seq <= ?")) {
            update.setLong(1, 365L * 24 * 3_600_000);
            update.setString(2, userKey);
            update.setLong(3, throughSeq);
            return update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
