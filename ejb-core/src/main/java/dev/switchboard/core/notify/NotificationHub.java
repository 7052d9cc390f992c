package dev.switchboard.core.notify;

import dev.switchboard.core.clock.Backoff;
import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.metrics.Meters;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sequences the outbox and fans notifications out to this instance's subscribers. One pump
 * thread, woken by local commits ({@link OutboxSignal}) and by a short poll (for notifications
 * other instances wrote or sequenced), stamps committed notifications and delivers everything up
 * to the log's end in seq order — and reads the log at least every poll interval, however busy
 * local commits keep it. Replays for resuming subscribers run on their own threads, never wait for
 * a slow subscriber (they park until it reads), report a pruned range as {@code stream/gap}, and
 * hand over to the live feed without gap or repeat (see {@link Subscription}).
 */
@Singleton
@Startup
@DependsOn("SchemaBootstrap")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class NotificationHub {

    private static final Logger LOG = Logger.getLogger(NotificationHub.class.getName());
    private static final int STAMP_BATCH = 1000;
    private static final int READ_PAGE = 1000;
    private static final long PRUNE_INTERVAL_MS = 300_000;
    private static final int PRUNE_BATCH = 5_000;
    private static final long FRESH_PASS_WAIT_MS = 2_000;

    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    NotificationLedger ledger;

    @Inject
    OutboxSignal signal;

    @Inject
    NotifySettings settings;

    @Inject
    InstanceClock clock;

    @Inject
    Meters meters;

    private final Object feedLock = new Object();
    /** Guarded by feedLock. */
    private final LiveSubscriptions live = new LiveSubscriptions();
    /** The last seq fanned out to live subscribers; guarded by feedLock for writes. */
    private volatile long delivered;
    private volatile boolean running;
    private long nextPrune;
    private PumpPasses passes;
    /** Pump passes begun and finished, so a new subscriber starts after one that began after it came. */
    private final Object passLock = new Object();
    private long passesBegun;
    private long passesDone;
    private boolean fullPassRequested; // guarded by passLock
    private final List<PendingStart> pendingStarts = new ArrayList<>(); // guarded by passLock
    /** Starts a pending subscription whose pass has not come in time (the pump is stuck). */
    private ScheduledExecutorService startDeadlines;
    private Thread pump;
    /** When the pump last began a round (waiting at most a poll interval, or its back-off, then a pass). */
    private volatile long lastRoundNanos = System.nanoTime();
    private ExecutorService replays;
    private final List<Runnable> advanceListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    @PostConstruct
    void start() {
        delivered = Backoff.retry(LOG, "Reading the notification log's end", Duration.ofSeconds(120), ledger::lastSeq);
        passes = new PumpPasses(settings.pollMs(), System.nanoTime());
        running = true;
        meters.gauge(Meters.Gauge.SUBSCRIBERS, live::size);
        replays = Executors.newFixedThreadPool(2, threadFactory);
        startDeadlines = Executors.newSingleThreadScheduledExecutor(threadFactory);
        pump = threadFactory.newThread(this::pumpLoop);
        pump.setName("switchboard-notify-pump");
        pump.start();
        LOG.info(() -> "Notification hub started at seq " + delivered);
    }

    /** Starts delivering to {@code subscription} everything after {@code afterSeq}, replayed from the database first. */
    public void subscribe(Subscription subscription, long afterSeq) {
        subscription.startAt(afterSeq);
        replaySoon(subscription);
    }

    /**
     * Starts delivering to {@code subscription} what is sequenced from now on, without the caller
     * waiting: "from now" excludes what committed before, so the subscription goes live, from where
     * delivery then stands, once a full pump pass that began after this call is done — or after
     * {@link #FRESH_PASS_WAIT_MS} when the pump is stuck — and then {@code onLive} runs, on the
     * pump's thread or a timer's. Unsubscribing meanwhile cancels it.
     */
    public void subscribeFromNow(Subscription subscription, Runnable onLive) {
        PendingStart pending;
        synchronized (passLock) {
            pending = new PendingStart(subscription, passesBegun + 1, onLive);
            pendingStarts.add(pending);
            fullPassRequested = true;
            signal.raise();
        }
        try {
            startDeadlines.schedule(() -> startIfPending(pending), FRESH_PASS_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            subscription.close();
        }
    }

    /** A subscription waiting for a fresh pass ({@link #subscribeFromNow}). */
    private record PendingStart(Subscription subscription, long afterPass, Runnable onLive) {
    }

    private void startIfPending(PendingStart pending) {
        synchronized (passLock) {
            if (!pendingStarts.remove(pending)) {
                return; // started by its pass
            }
        }
        start(pending);
    }

    private void start(PendingStart pending) {
        synchronized (feedLock) {
            if (pending.subscription().isClosed()) {
                return;
            }
            pending.subscription().startAt(delivered);
            live.add(pending.subscription());
        }
        pending.onLive().run();
    }

    public void unsubscribe(Subscription subscription) {
        subscription.close();
        synchronized (feedLock) { // after a pending start's check-and-add, never between them
            live.remove(subscription);
        }
    }

    public int subscriberCount() {
        return live.size();
    }

    /** The last seq delivered on this instance. */
    public long deliveredSeq() {
        return delivered;
    }

    private void replaySoon(Subscription sub) {
        try {
            replays.execute(() -> replay(sub));
        } catch (RejectedExecutionException stopping) {
            sub.close();
        }
    }

    /**
     * Replays the log to {@code sub} until it reaches the live feed, then switches it over. When the
     * subscriber's queue is half full the replay parks and gives its thread back; the subscriber's
     * next read resumes it. A cursor older than the retention gets a {@code stream/gap} notice first.
     */
    private void replay(Subscription sub) {
        try {
            while (running && !sub.isClosed()) {
                long target = delivered;
                if (sub.cursor() >= target) {
                    synchronized (feedLock) {
                        if (sub.cursor() >= delivered) {
                            live.add(sub);
                            return;
                        }
                    }
                    continue; // the live feed moved on meanwhile: read the difference
                }
                long from = sub.cursor();
                int limit = Math.max(1, Math.min(READ_PAGE, sub.replayRoom()));
                List<Notification> page = ledger.afterForUser(sub.userKey(), from, target, limit);
                long pruned = ledger.prunedThrough(); // read after the page: a prune racing the read is seen
                if (from < pruned) {
                    sub.noticeGap(pruned, gapNotice(from, pruned + 1));
                }
                for (Notification n : page) {
                    if (sub.parkUntilRoom(() -> replaySoon(sub))) {
                        return; // resumed from the cursor when the subscriber has read enough
                    }
                    if (!sub.offer(n)) {
                        return;
                    }
                }
                sub.advance(page.size() == limit ? page.get(page.size() - 1).seq() : target);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Replay for a subscriber failed; it is disconnected and may resume", e);
            sub.cutOff();
        }
    }

    /** What a subscriber resuming from before the retention is told: the first seq the log still has. */
    static String gapNotice(long afterSeq, long firstSeq) {
        return Jsons.createObjectBuilder().add("jsonrpc", "2.0").add("method", "stream/gap")
                .add("params", Jsons.createObjectBuilder().add("after_seq", afterSeq).add("first_seq", firstSeq)
                        .add("message", "notifications after seq " + afterSeq + " up to seq " + (firstSeq - 1)
                                + " are past the retention and were pruned; read threads (thread/read) to resync"))
                .build().toString();
    }

    /** Milliseconds since the pump last went round (a pass done, or failed and backed off): how long a stuck one has been stuck. */
    public long sequencerAgeMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastRoundNanos);
    }

    private void pumpLoop() {
        long backoff = 0;
        while (running) {
            lastRoundNanos = System.nanoTime();
            try {
                boolean woken = signal.await(backoff > 0 ? backoff : settings.pollMs());
                if (!running) {
                    return;
                }
                boolean full;
                synchronized (passLock) {
                    passesBegun++;
                    full = passes.full(woken, fullPassRequested, System.nanoTime());
                    fullPassRequested = false;
                }
                try {
                    pump(full);
                } finally {
                    List<PendingStart> due = new ArrayList<>();
                    synchronized (passLock) {
                        passesDone++;
                        for (Iterator<PendingStart> it = pendingStarts.iterator(); it.hasNext();) {
                            PendingStart pending = it.next();
                            if (pending.afterPass() <= passesDone) {
                                due.add(pending);
                                it.remove();
                            }
                        }
                    }
                    due.forEach(this::start);
                }
                pruneNow();
                backoff = 0;
            } catch (InterruptedException e) {
                return;
            } catch (Throwable e) { // NOPMD: the pump is this instance's only delivery thread; it must not die
                backoff = Math.min(5_000, Math.max(100, backoff * 2));
                LOG.log(Level.WARNING, "Notification pump failed; retrying in " + backoff + " ms", e);
            }
        }
    }

    /** Every few minutes, deletes log entries older than the retention, a bounded batch at a time. */
    private void pruneNow() {
        long now = clock.millis();
        if (now < nextPrune) {
            return;
        }
        int deleted = ledger.prune(now - settings.retentionMs(), PRUNE_BATCH);
        nextPrune = deleted == PRUNE_BATCH ? now + 1_000 : now + PRUNE_INTERVAL_MS;
        if (deleted > 0) {
            LOG.fine(() -> "Pruned " + deleted + " notifications older than the retention");
        }
    }

    /** Stamps what is committed and delivers up to the log's end. */
    private void pump(boolean pollTick) {
        boolean contiguous = true;
        boolean probe = pollTick; // a local commit's wake-up means there is something to stamp
        while (true) {
            NotificationLedger.StampBatch batch = ledger.stamp(STAMP_BATCH, probe);
            probe = true;
            if (batch.stamped().isEmpty()) {
                if (batch.before() > delivered) {
                    contiguous = false; // another instance's stamper took our rows: they are in the log
                }
                break;
            }
            if (contiguous && batch.before() == delivered) {
                fanOut(batch.stamped());
            } else {
                contiguous = false; // another instance stamped in between: read the log instead
            }
            if (batch.stamped().size() < STAMP_BATCH) {
                break;
            }
        }
        if (!contiguous || pollTick) {
            catchUp();
        }
    }

    private void catchUp() {
        while (true) {
            long end = ledger.lastSeq();
            if (end <= delivered) {
                return;
            }
            List<Notification> page = ledger.after(delivered, end, READ_PAGE);
            if (page.isEmpty()) {
                return;
            }
            fanOut(page);
        }
    }

    private void fanOut(List<Notification> batch) {
        synchronized (feedLock) {
            for (Notification n : batch) {
                if (n.seq() <= delivered) {
                    continue;
                }
                live.offer(n, sub -> sub.offer(n));
                delivered = n.seq();
                meters.notificationLag(Duration.ofMillis(clock.millis() - n.createdAt()));
            }
        }
        for (Runnable listener : advanceListeners) {
            listener.run();
        }
    }

    /**
     * Runs {@code listener} on the pump's thread each time the log has moved on (a pass delivered
     * something): a reader of the log in the database (the webhooks' fan-out) reads it then instead
     * of waiting for its own poll. It must return at once.
     */
    public void whenAdvanced(Runnable listener) {
        advanceListeners.add(listener);
    }

    @PreDestroy
    void stop() {
        running = false;
        signal.raise();
        List<Subscription> closing;
        synchronized (feedLock) {
            closing = live.all();
            live.clear();
        }
        closing.forEach(Subscription::close);
        replays.shutdownNow();
        startDeadlines.shutdownNow();
        if (pump != null) {
            pump.interrupt();
        }
    }
}
