package dev.switchboard.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The hub — the pump that stamps the outbox and its live feed and replays — built outside the
 * container on PostgreSQL and on the embedded H2: the ledger's methods each in a transaction of
 * their own, as the container's {@code @Stateless} bean runs them, and the outbox's commits raising
 * the pump's signal, as the outbox's transaction synchronization does. What is checked is what a
 * subscriber receives: every notification once, in seq order, a late commit included, and a
 * {@code stream/gap} notice when it resumes from before the retention.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class NotificationHubTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);
    private static final long WAIT_MS = 30_000;

    private final Wiring w;

    /**
     * The stores, the ledger and two started hubs over one database, as two instances share it:
     * {@code hub} is the instance the tests write on (its signal raised after each commit), {@code
     * otherHub} another one, which learns of those commits only through its poll.
     */
    private record Wiring(LocalTransactions tx, Outbox outbox, NotificationLedger ledger, OutboxSignal signal,
            NotificationHub hub, NotificationHub otherHub) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_notify_hub"));
            Statements statements = new Statements(tx.dataSource());
            Outbox outbox = new Outbox(statements);
            NotificationLedger ledger = new TransactionalLedger(tx, outbox, new NotificationLog(statements),
                    new NotificationSequencer(statements));
            OutboxSignal signal = new OutboxSignal();
            return new Wiring(tx, outbox, ledger, signal, started(ledger, signal), started(ledger, new OutboxSignal()));
        }

        private static NotificationHub started(NotificationLedger ledger, OutboxSignal signal) {
            NotifySettings settings = new NotifySettings();
            settings.pollMs = 100;
            settings.retentionHours = 168;
            NotificationHub hub = new NotificationHub();
            hub.threadFactory = new PlainThreads();
            hub.ledger = ledger;
            hub.signal = signal;
            hub.settings = settings;
            hub.clock = InstanceClock.of(Clock.systemUTC());
            hub.meters = Meters.none();
            hub.start();
            return hub;
        }
    }

    /** The ledger as the container runs it: each call its own transaction (the hub calls it outside one). */
    private static final class TransactionalLedger extends NotificationLedger {

        private final LocalTransactions tx;

        TransactionalLedger(LocalTransactions tx, Outbox outbox, NotificationLog log, NotificationSequencer sequencer) {
            super(outbox, log, sequencer);
            this.tx = tx;
        }

        @Override
        public StampBatch stamp(int limit, boolean probeFirst) {
            return tx.inTransaction(() -> super.stamp(limit, probeFirst));
        }

        @Override
        public List<Notification> after(long after, long upTo, int limit) {
            return tx.inTransaction(() -> super.after(after, upTo, limit));
        }

        @Override
        public List<Notification> afterForUser(String userKey, long after, long upTo, int limit) {
            return tx.inTransaction(() -> super.afterForUser(userKey, after, upTo, limit));
        }

        @Override
        public int prune(long cutoffMs, int limit) {
            return tx.inTransaction(() -> super.prune(cutoffMs, limit));
        }

        @Override
        public long lastSeq() {
            return tx.inTransaction(super::lastSeq);
        }

        @Override
        public long prunedThrough() {
            return tx.inTransaction(super::prunedThrough);
        }
    }

    /** The container's managed threads, as plain ones. */
    private static final class PlainThreads implements ManagedThreadFactory {

        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable work) {
            Thread thread = new Thread(work, "hub-test-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }

        @Override
        public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
            throw new UnsupportedOperationException("the hub uses no fork-join pool");
        }
    }

    NotificationHubTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    @AfterAll
    static void stop() {
        synchronized (WIRINGS) {
            WIRINGS.values().forEach(wiring -> {
                wiring.hub().stop();
                wiring.otherHub().stop();
            });
            WIRINGS.clear();
        }
    }

    private static OutboxRow row(String user, String marker, long createdAt) {
        return new OutboxRow(user, "thread-" + user, "test/marker", "{\"marker\":\"" + marker + "\"}", createdAt);
    }

    /** Commits the rows, then wakes the pump: what the outbox's synchronization does after a commit. */
    private void commit(OutboxRow... rows) {
        w.tx().run(() -> w.outbox().write(List.of(rows)));
        w.signal().raise();
    }

    @Test
    void aNotificationCommittedLateIsDeliveredLiveAfterTheEarlierOneOnceAndInSeqOrder() throws Exception {
        String user = "live-" + UUID.randomUUID();
        Feed feed = Feed.liveOn(w.hub(), user);

        try (HeldOutboxWrite early = new HeldOutboxWrite(w.tx(), w.outbox(),
                row(user, "first-started", System.currentTimeMillis()))) {
            commit(row(user, "second-started", System.currentTimeMillis()));
            Notification second = feed.take();
            assertTrue(second.line().contains("second-started"), "delivered while the other is uncommitted: " + second);
            early.commit();
        }
        w.signal().raise();
        Notification first = feed.take();
        assertTrue(first.line().contains("first-started"), first.toString());

        commit(row(user, "end-marker", System.currentTimeMillis()));
        Notification end = feed.take();
        assertTrue(end.line().contains("end-marker"), "nothing repeated before what followed: " + end);
        List<Long> seqs = feed.taken.stream().map(Notification::seq).toList();
        assertTrue(seqs.get(0) < seqs.get(1) && seqs.get(1) < seqs.get(2), "seq order is delivery order: " + seqs);
        assertEquals(seqs, w.ledger().afterForUser(user, seqs.get(0) - 1, w.ledger().lastSeq(), 100).stream()
                .map(Notification::seq).toList(), "the log holds what the feed delivered");
        w.hub().unsubscribe(feed.subscription);
    }

    /**
     * Two instances on one database: what is committed on one reaches a subscriber of the other,
     * which is never woken by that commit (only by its poll), in seq order; and a replay there from
     * before the first gives exactly what was delivered live. Both hubs stamp, as both instances do.
     */
    @Test
    void notificationsWrittenOnOneInstanceReachTheSubscribersOfAnotherInOrderAndItsReplayIsTheSame() throws Exception {
        String user = "cross-" + UUID.randomUUID();
        Feed onOther = Feed.liveOn(w.otherHub(), user);

        List<String> markers = List.of("n0", "n1", "n2", "n3", "n4");
        for (String marker : markers) {
            commit(row(user, marker, System.currentTimeMillis()));
        }
        List<Notification> live = new ArrayList<>();
        for (String marker : markers) {
            Notification n = onOther.take();
            assertTrue(n.line().contains("\"" + marker + "\""), "in commit order: " + n);
            live.add(n);
        }
        List<Long> seqs = live.stream().map(Notification::seq).toList();
        assertEquals(seqs.stream().sorted().distinct().toList(), seqs, "increasing seqs, none twice");

        Feed replay = new Feed(user);
        w.otherHub().subscribe(replay.subscription, seqs.get(0) - 1);
        List<Long> replayed = new ArrayList<>();
        for (int i = 0; i < markers.size(); i++) {
            replayed.add(replay.take().seq());
        }
        assertEquals(seqs, replayed, "the replay on the other instance equals what it delivered live");
        w.otherHub().unsubscribe(onOther.subscription);
        w.otherHub().unsubscribe(replay.subscription);
    }

    /**
     * A subscriber cut off for falling behind is unsubscribed by its transport from within the
     * hub's fan-out (the WebSocket's overflow closes its stream there): the subscribers after it
     * get the batch whole and the hub goes on delivering. (Removed at once, the fan-out's walk broke
     * and the pump, retrying with back-off, held up every subscriber.)
     */
    @Test
    void aSubscriberCutOffFromWithinTheFanOutLeavesTheOthersTheirNotificationsAndThePumpGoingOn() throws Exception {
        String user = "cut-" + UUID.randomUUID();
        AtomicReference<Subscription> slow = new AtomicReference<>();
        AtomicLong cutAfter = new AtomicLong(-1);
        slow.set(new Subscription(user, null, 2, new Subscription.Sink() {
            @Override
            public void available() {
            }

            @Override
            public void overflow(long lastSentSeq) {
                cutAfter.set(lastSentSeq);
                w.hub().unsubscribe(slow.get()); // as the WebSocket transport does
            }
        }));
        List<LogRecord> pumpWarnings = new CopyOnWriteArrayList<>();
        Handler warnings = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    pumpWarnings.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger hubLog = Logger.getLogger(NotificationHub.class.getName());
        hubLog.addHandler(warnings);
        CountDownLatch slowIsLive = new CountDownLatch(1);
        w.hub().subscribeFromNow(slow.get(), slowIsLive::countDown); // ahead of the reader in the walk
        assertTrue(slowIsLive.await(WAIT_MS, TimeUnit.MILLISECONDS), "the slow subscription did not go live");
        Feed reader = Feed.liveOn(w.hub(), user);

        long now = System.currentTimeMillis();
        commit(row(user, "b0", now), row(user, "b1", now), row(user, "b2", now), row(user, "b3", now), row(user, "b4", now));
        long firstSeq = 0;
        for (int i = 0; i < 5; i++) {
            Notification n = reader.take();
            assertTrue(n.line().contains("\"b" + i + "\""), "the reader gets the batch whole, in order");
            firstSeq = i == 0 ? n.seq() : firstSeq;
        }
        assertTrue(slow.get().isClosed(), "the slow one was cut off");
        assertTrue(cutAfter.get() >= 0 && cutAfter.get() < firstSeq, "told to resume before what it never took: "
                + cutAfter.get());
        commit(row(user, "after", System.currentTimeMillis()));
        assertTrue(reader.take().line().contains("after"), "the pump goes on delivering");
        hubLog.removeHandler(warnings);
        assertEquals(List.of(), pumpWarnings.stream().map(r -> r.getMessage() + ": " + r.getThrown()).toList(),
                "the pump never failed (a failed pass is retried after a back-off that holds up every subscriber)");
        w.hub().unsubscribe(reader.subscription);
    }

    @Test
    void aResumeFromBeforeTheRetentionIsToldOfTheGapFirstAndOneTheLogCoversIsNot() throws Exception {
        String user = "gap-" + UUID.randomUUID();
        long before = w.ledger().lastSeq();
        // Older than the hour this test prunes, younger than the week the hub's own pruning keeps.
        long now = System.currentTimeMillis();
        long old = now - 2 * 3_600_000;
        commit(row(user, "n1", old), row(user, "n2", old), row(user, "n3", old), row(user, "n4", now),
                row(user, "n5", now));
        List<Notification> log = awaitLog(user, before, 5);
        assertTrue(w.ledger().prune(now - 3_600_000, 1_000) >= 3, "the three old ones pruned");
        long third = log.get(2).seq();
        assertTrue(w.ledger().prunedThrough() >= third);

        Feed fromBefore = new Feed(user);
        w.hub().subscribe(fromBefore.subscription, before);
        Notification notice = fromBefore.take();
        assertEquals("stream/gap", notice.method(), "told first: " + notice);
        JsonObject gap = Json.createReader(new StringReader(notice.line())).readObject().getJsonObject("params");
        assertEquals(before, gap.getJsonNumber("after_seq").longValue());
        assertEquals(w.ledger().prunedThrough() + 1, gap.getJsonNumber("first_seq").longValue());
        assertEquals(List.of(log.get(3).seq(), log.get(4).seq()), List.of(fromBefore.take().seq(), fromBefore.take().seq()));

        Feed fromThird = new Feed(user);
        w.hub().subscribe(fromThird.subscription, third);
        assertEquals(List.of(log.get(3).seq(), log.get(4).seq()), List.of(fromThird.take().seq(), fromThird.take().seq()),
                "no notice for a resume the log still covers");

        // Nothing more follows in either feed (a repeated notice, say): the next thing each sees is a new marker.
        commit(row(user, "end-marker", System.currentTimeMillis()));
        assertTrue(fromBefore.take().line().contains("end-marker"));
        assertTrue(fromThird.take().line().contains("end-marker"));
        w.hub().unsubscribe(fromBefore.subscription);
        w.hub().unsubscribe(fromThird.subscription);
    }

    /** A subscriber's side: takes notifications as its transport would, woken by the sink. */
    private static final class Feed {

        private final Object arrived = new Object();
        private final List<Notification> taken = new ArrayList<>();
        private final Subscription subscription;

        Feed(String user) {
            subscription = new Subscription(user, null, 100, new Subscription.Sink() {
                @Override
                public void available() {
                    synchronized (arrived) {
                        arrived.notifyAll();
                    }
                }

                @Override
                public void overflow(long lastSentSeq) {
                    throw new AssertionError("a feed of a few notifications overflowed at " + lastSentSeq);
                }
            });
        }

        /** A feed of {@code user}'s notifications subscribed on {@code hub} from now, once it is live. */
        static Feed liveOn(NotificationHub hub, String user) throws InterruptedException {
            Feed feed = new Feed(user);
            CountDownLatch isLive = new CountDownLatch(1);
            hub.subscribeFromNow(feed.subscription, isLive::countDown);
            assertTrue(isLive.await(WAIT_MS, TimeUnit.MILLISECONDS), "the subscription did not go live");
            return feed;
        }

        /** The next notification, waiting for it to arrive. */
        Notification take() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            synchronized (arrived) {
                while (true) {
                    Notification n = subscription.poll();
                    if (n != null) {
                        taken.add(n);
                        return n;
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new AssertionError("nothing delivered within " + WAIT_MS + " ms after " + taken);
                    }
                    arrived.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            }
        }
    }

    /** The user's log once it holds {@code count} notifications after {@code after} (the hub stamps them). */
    private List<Notification> awaitLog(String user, long after, int count) throws InterruptedException {
        return awaitValue(() -> {
            List<Notification> log = w.ledger().afterForUser(user, after, w.ledger().lastSeq(), 100);
            return log.size() >= count ? log : null;
        }, "the hub stamped " + count + " notifications");
    }

    private static <T> T awaitValue(Supplier<T> read, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (System.nanoTime() < deadline) {
            T value = read.get();
            if (value != null) {
                return value;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not within " + WAIT_MS + " ms: " + what);
    }
}
