package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.testkit.Await;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two releases of one held event on PostgreSQL, where instances meet (the embedded H2 serves one):
 * the event is locked by the first, and the second reads it only once the first has committed.
 */
class IngressRecordsLockTest {

    private final LocalTransactions tx = new LocalTransactions(FreshDatabase.create(FreshDatabase.Kind.POSTGRESQL,
            "switchboard_ingress_records_lock"));
    private final IngressRecords records = new IngressRecords(new Statements(tx.dataSource()));

    /**
     * A held event locked by one transaction (a release handing it off) is read by another release
     * only once the first has committed, and then as the first left it — so it is handed off once.
     * Held at the exact step: the first transaction waits with its lock taken until the second is
     * seen waiting for it (PostgreSQL's own view of its sessions), then commits.
     */
    @Test
    void aHeldEventLockedByOneReleaseIsReadByAnotherOnlyAsTheFirstLeftIt() throws Exception {
        String user = "user-" + UUID.randomUUID();
        IngressEvent held = new IngressEvent(user, "l-1", "ci", "ci.done", "acme/x", null, "event:acme/x", EventStatus.HELD,
                null, null, "{}", 1_000);
        tx.run(() -> records.insert(held));
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch mayCommit = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> tx.run(() -> {
            IngressEvent mine = records.lock(user, "l-1").orElseThrow();
            assertEquals(EventStatus.HELD, mine.status());
            records.settle(mine, EventStatus.ACCEPTED, "run-l", "turn-l");
            locked.countDown();
            try {
                assertTrue(mayCommit.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        assertTrue(locked.await(30, TimeUnit.SECONDS));
        CompletableFuture<Optional<IngressEvent>> second = CompletableFuture.supplyAsync(
                () -> tx.inTransaction(() -> records.lock(user, "l-1")));
        Await.until(Duration.ofSeconds(30), this::aSessionWaitsForALock, "the second release waits for the lock");
        assertFalse(second.isDone(), "it waits");
        mayCommit.countDown();
        first.get(30, TimeUnit.SECONDS);
        assertEquals(Optional.of(held.settled(EventStatus.ACCEPTED, "run-l", "turn-l")), second.get(30, TimeUnit.SECONDS),
                "read as the first release left it: not held any more");
    }

    private boolean aSessionWaitsForALock() {
        return tx.inTransaction(() -> new Statements(tx.dataSource()).query("SELECT count(*) FROM pg_stat_activity"
                + " WHERE wait_event_type = 'Lock' AND datname = current_database()", s -> { }, rs -> rs.getLong(1),
                "sessions waiting for a lock").get(0)) > 0;
    }

}
