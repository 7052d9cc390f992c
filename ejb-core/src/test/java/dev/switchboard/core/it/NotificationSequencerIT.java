package dev.switchboard.core.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotificationLedger;
import dev.switchboard.core.notify.Subscription;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The outbox's sequencer on a real Liberty and PostgreSQL, with two writers whose commits are
 * forced out of order: the writer that inserted its notification first is held after the insert
 * and commits last. An insert-order sequencer would give it the earlier seq. Its notification must get the
 * later seq (seq order is commit order), and a reader that has seen the earlier seq must still
 * receive it — no gap, no repeat — both from the log and through the hub's live feed.
 */
@ExtendWith(ArquillianExtension.class)
class NotificationSequencerIT {

    @Deployment
    static WebArchive deployment() {
        return ArqDeployment.create();
    }

    @Inject
    OutboxProbe outbox;

    @Inject
    NotificationLedger ledger;

    @Inject
    NotificationHub hub;

    @Test
    void aNotificationCommittedLateGetsTheLaterSeqAndIsNeverSkipped() throws Exception {
        String user = "seq-" + UUID.randomUUID();
        List<Notification> live = new ArrayList<>();
        Subscription subscription = new Subscription(user, null, 100, new Subscription.Sink() {
            @Override
            public void available() {
            }

            @Override
            public void overflow(long lastSentSeq) {
            }
        });
        CountDownLatch isLive = new CountDownLatch(1);
        hub.subscribeFromNow(subscription, isLive::countDown);
        assertTrue(isLive.await(10, TimeUnit.SECONDS), "the subscription did not go live");
        long start = subscription.lastTakenSeq();

        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger insertedRows = new AtomicInteger(-1);
        Future<Void> early = outbox.appendAndHold(user, "first-started", held, release, insertedRows);
        assertTrue(held.await(10, TimeUnit.SECONDS), "the held writer did not reach its commit");
        assertEquals(1, insertedRows.get(), "held after its outbox insert, before its commit");
        outbox.append(user, "second-started");

        long afterSecond = awaitLogEnd(user, start, 1);
        List<Notification> seenSoFar = ledger.afterForUser(user, start, afterSecond, 100);
        assertEquals(1, seenSoFar.size(), "only the committed notification may be sequenced: " + seenSoFar);
        assertTrue(seenSoFar.get(0).line().contains("second-started"));

        release.countDown();
        early.get(10, TimeUnit.SECONDS);
        long end = awaitLogEnd(user, start, 2);
        List<Notification> all = ledger.afterForUser(user, start, end, 100);
        assertEquals(2, all.size(), "both notifications in the log: " + all);
        assertTrue(all.get(0).line().contains("second-started"), "commit order: " + all);
        assertTrue(all.get(1).line().contains("first-started"), "commit order: " + all);
        assertTrue(all.get(0).seq() < all.get(1).seq());

        // A reader that had seen the first sequenced notification resumes after it and gets the late one.
        List<Notification> resumed = ledger.afterForUser(user, seenSoFar.get(0).seq(), end, 100);
        assertEquals(List.of(all.get(1).seq()), resumed.stream().map(Notification::seq).toList());

        // The live feed delivered both, in seq order, exactly once.
        long deadline = System.currentTimeMillis() + 10_000;
        while (live.size() < 2 && System.currentTimeMillis() < deadline) {
            Notification n = subscription.poll();
            if (n == null) {
                Thread.sleep(20);
            } else {
                live.add(n);
            }
        }
        hub.unsubscribe(subscription);
        assertEquals(all.stream().map(Notification::seq).toList(), live.stream().map(Notification::seq).toList());
    }

    /** Waits until the user has {@code count} notifications after {@code start}; returns the log's end. */
    private long awaitLogEnd(String user, long start, int count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            long end = ledger.lastSeq();
            if (ledger.afterForUser(user, start, end, 100).size() >= count) {
                return end;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the sequencer did not stamp " + count + " notification(s) within 10 s");
    }
}
