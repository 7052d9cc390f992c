package dev.switchboard.core.webhook;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.credential.Credentials;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.notify.NotificationHub;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Delivers webhook messages, on threads of its own. One loop thread, every poll interval (or when
 * woken): turns new log entries into messages ({@link WebhookLedger#fanOut}), then takes as many
 * due messages as the sender pool can run and hold in its queue (twice as many as it has threads) —
 * never more, so the bounded queue is never full — each leased to this instance for longer than
 * it can take to wait in the queue and be attempted. A sender makes
 * the attempt ({@link WebhookSender}) and ends it in one transaction. An instance that dies
 * mid-attempt leaves its messages leased; they are due again when the lease ends, for any
 * instance, with the same {@code webhook-id}.
 */
@Singleton
@Startup
@DependsOn({"SchemaBootstrap", "NotificationHub"})
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class WebhookDispatcher {

    private static final Logger LOG = Logger.getLogger(WebhookDispatcher.class.getName());
    private static final long PRUNE_EVERY_MS = 3_600_000;
    private static final int PRUNE_BATCH = 1_000;

    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    WebhookLedger ledger;

    @EJB
    NotificationHub hub;

    @Inject
    WebhookSettings settings;

    @Inject
    WebhookSignal signal;

    @Inject
    Credentials credentials;

    @Inject
    InstanceClock clock;

    @Inject
    Meters meters;

    private volatile boolean running;
    private Thread loop;
    private ThreadPoolExecutor senders;
    private final AtomicInteger inFlight = new AtomicInteger();
    /** The log moved on since the last fan-out. */
    private final AtomicBoolean logAdvanced = new AtomicBoolean(true);
    /** Whether the last fan-out found an endpoint enabled: without one, only the poll looks at the log. */
    private volatile boolean endpointsSeen;
    private long nextFanOut;
    private WebhookSender sender;
    private RetrySchedule schedule;
    private EventMessages events;
    private long nextPrune;

    @PostConstruct
    void start() {
        schedule = settings.retrySchedule();
        events = new EventMessages(settings.maxBodyBytes());
        sender = new WebhookSender(settings.addressPolicy(), settings.connectTimeout(), settings.timeout());
        int n = settings.senders();
        // Claimed messages (at most twice as many as there are senders) wait in the queue for a
        // sender, so that a sender never waits for the loop's next round. The queue holds all of
        // them: a sender counts itself free a moment before its thread is back in the pool.
        senders = new ThreadPoolExecutor(n, n, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(2 * n), threadFactory);
        senders.allowCoreThreadTimeOut(true);
        running = true;
        hub.whenAdvanced(() -> {
            logAdvanced.set(true);
            if (endpointsSeen) { // no endpoint, no work on the message path: the poll finds new ones
                signal.raise();
            }
        });
        loop = threadFactory.newThread(this::run);
        loop.setName("switchboard-webhooks");
        loop.start();
    }

    private void run() {
        long backoff = 0;
        while (running) {
            try {
                signal.await(backoff > 0 ? backoff : settings.pollMs());
                if (!running) {
                    return;
                }
                round();
                backoff = 0;
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                backoff = Math.min(5_000, Math.max(250, backoff * 2));
                LOG.log(Level.WARNING, "Webhook dispatch failed; retrying in " + backoff + " ms", e);
            }
        }
    }

    /**
     * One round: the log into messages (when it moved on and endpoints exist, or a poll interval
     * passed: other instances' events, new endpoints), then due messages to free senders, then
     * (hourly) pruning.
     */
    private void round() {
        long now = clock.millis();
        boolean advanced = logAdvanced.getAndSet(false);
        if (now >= nextFanOut || advanced && endpointsSeen) {
            nextFanOut = now + settings.pollMs();
            WebhookLedger.FanOut fanOut = ledger.fanOut(now, events);
            for (int i = 0; i < 20 && fanOut.more(); i++) { // a backlog, in batches, each its own transaction
                fanOut = ledger.fanOut(clock.millis(), events);
            }
            endpointsSeen = fanOut.endpoints();
        }
        int free = 2 * settings.senders() - inFlight.get();
        if (free > 0) {
            for (WebhookLedger.Claimed c : ledger.claim(free, settings.lease())) {
                inFlight.incrementAndGet();
                try {
                    senders.execute(() -> deliver(c));
                } catch (RejectedExecutionException stopping) {
                    inFlight.decrementAndGet(); // its lease runs out; it is taken again
                }
            }
        }
        now = clock.millis();
        if (now >= nextPrune) {
            int pruned = ledger.prune(now - settings.retention().toMillis(), PRUNE_BATCH);
            nextPrune = pruned == PRUNE_BATCH ? now + 1_000 : now + PRUNE_EVERY_MS;
        }
    }

    /** Sends the message, then each next one of its lane that the ledger hands over when it is due. */
    private void deliver(WebhookLedger.Claimed claimed) {
        WebhookLedger.Claimed c = claimed;
        try {
            while (c != null && running) {
                WebhookLedger.Result result = attempt(c);
                meters.webhookAttempt(result.outcome());
                if (result.isDelivered()) {
                    meters.webhookLag(Duration.ofMillis(clock.millis() - c.message().createdAt()));
                }
                // A lane's next message follows at once only while no claim waits for a sender: a
                // claim's lease covers one attempt ahead of it, not a lane's whole run of them.
                c = ledger.finish(c, result, schedule, clock.millis(), settings.lease(), senders.getQueue().isEmpty());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Ending webhook attempt " + c.attempt() + " of " + c.message().msgId()
                    + " failed; it is tried again when its lease ends", e);
        } finally {
            // Other lanes' messages may be due: taking them costs a look at every lane, so it is
            // done for half the senders at once, not for each that comes free.
            if (inFlight.decrementAndGet() <= settings.senders()) {
                signal.raise();
            }
        }
    }

    private WebhookLedger.Result attempt(WebhookLedger.Claimed c) {
        long now = clock.millis();
        List<String> secrets = new ArrayList<>();
        for (String sealed : c.endpoint().signingSecrets(now)) {
            Optional<String> secret = credentials.open(c.endpoint().userKey(), Webhooks.purpose(c.endpoint().id()), sealed);
            secret.ifPresent(secrets::add);
        }
        if (secrets.isEmpty()) {
            return new WebhookLedger.Result(null, 0, WebhookAttempt.RETRY,
                    "not sent: the endpoint's secret does not open with this instance's credentials key");
        }
        return sender.send(c.endpoint().url(), c.message().msgId(), c.message().payload(), secrets, now / 1000);
    }

    @PreDestroy
    void stop() {
        running = false;
        signal.raise();
        if (loop != null) {
            loop.interrupt();
        }
        senders.shutdownNow();
    }
}
