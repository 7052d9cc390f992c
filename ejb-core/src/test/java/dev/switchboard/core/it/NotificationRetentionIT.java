package dev.switchboard.core.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotificationLedger;
import dev.switchboard.core.notify.Subscription;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Resuming from a seq the retention already pruned is not a silent gap: the subscriber is told,
 * with a {@code stream/gap} notice naming the first seq the log still has, before what follows.
 * Resuming from a seq the log still covers gets no notice.
 */
@ExtendWith(ArquillianExtension.class)
class NotificationRetentionIT {

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
    void aResumeFromBeforeTheRetentionIsToldOfTheGap() throws Exception {
        String user = "gap-" + UUID.randomUUID();
        long before = ledger.lastSeq();
        for (int i = 1; i <= 5; i++) {
            outbox.append(user, "n" + i);
        }
        List<Notification> log = awaitLog(user, before, 5);
        long third = log.get(2).seq();
        assertEquals(3, outbox.age(user, third));
        assertTrue(ledger.prune(System.currentTimeMillis() - 3_600_000, 1_000) >= 3);
        assertTrue(ledger.prunedThrough() >= third);

        List<Notification> resumed = drain(subscribe(user, before), 3);
        assertEquals("stream/gap", resumed.get(0).method(), "told first: " + resumed);
        JsonObject gap = Json.createReader(new StringReader(resumed.get(0).line())).readObject().getJsonObject("params");
        assertEquals(before, gap.getJsonNumber("after_seq").longValue());
        assertEquals(ledger.prunedThrough() + 1, gap.getJsonNumber("first_seq").longValue());
        assertEquals(List.of(log.get(3).seq(), log.get(4).seq()), resumed.subList(1, 3).stream().map(Notification::seq).toList());

        List<Notification> fromLive = drain(subscribe(user, third), 2);
        assertEquals(List.of(log.get(3).seq(), log.get(4).seq()), fromLive.stream().map(Notification::seq).toList(),
                "no notice for a resume the log still covers");
    }

    private Subscription subscribe(String user, long afterSeq) {
        Subscription sub = new Subscription(user, null, 100, new Subscription.Sink() {
            @Override
            public void available() {
            }

            @Override
            public void overflow(long lastSentSeq) {
            }
        });
        hub.subscribe(sub, afterSeq);
        return sub;
    }

    private List<Notification> drain(Subscription sub, int count) throws InterruptedException {
        List<Notification> got = new ArrayList<>();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (got.size() < count && System.nanoTime() < deadline) {
            Notification n = sub.poll();
            if (n == null) {
                Thread.sleep(10);
            } else {
                got.add(n);
            }
        }
        Thread.sleep(200); // nothing more may follow (a repeated notice, say)
        for (Notification n = sub.poll(); n != null; n = sub.poll()) {
            got.add(n);
        }
        hub.unsubscribe(sub);
        assertEquals(count, got.size(), "delivered: " + got);
        return got;
    }

    private List<Notification> awaitLog(String user, long after, int count) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<Notification> log = ledger.afterForUser(user, after, ledger.lastSeq(), 100);
            if (log.size() >= count) {
                return log;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the sequencer did not stamp " + count + " notifications within 10 s");
    }
}
