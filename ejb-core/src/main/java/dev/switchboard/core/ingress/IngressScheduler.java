package dev.switchboard.core.ingress;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.clock.PeriodicTask;
import dev.switchboard.core.runtime.ServeRuntime;
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
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ingress work that is not a request: configured timer ticks, the release of held events after a
 * resume commits, and a periodic sweep (first at start-up) that releases anything a failed release
 * or a crash left held; hourly, it forgets dedupe keys and records past their retention. No
 * exception or error ends a schedule. Ticks enter the
 * ordinary pipeline, so every instance may fire them: the bucket's dedupe key lets one run per
 * tick through, and a paused runtime holds them like any event.
 */
@Singleton
@Startup
@DependsOn("LaneController")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class IngressScheduler {

    private static final Logger LOG = Logger.getLogger(IngressScheduler.class.getName());
    /** Fire just after the boundary, so that a clock read at the tick falls in the new bucket. */
    private static final long BOUNDARY_MARGIN_MS = 20;

    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    IngressService ingress;

    @Inject
    IngressSettings settings;

    @Inject
    InstanceClock clock;

    private ScheduledExecutorService scheduler;
    private volatile boolean running;
    /** Users with a release queued and not yet begun: further requests for them add nothing. */
    private final Set<String> releaseQueued = ConcurrentHashMap.newKeySet();

    @PostConstruct
    void start() {
        scheduler = Executors.newScheduledThreadPool(2, threadFactory); // a long release must not delay ticks
        running = true;
        scheduler.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "Release of held events", this::releaseLeftovers),
                0, settings.releaseSweepMs(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "Forgetting old ingress records",
                this::forgetOldRecords), 1, 60, TimeUnit.MINUTES);
        Optional<TickSchedule> schedule = settings.tickSchedule();
        schedule.ifPresent(s -> {
            LOG.info(() -> "Timer ticks every " + s.interval() + " for " + s.repos());
            for (String repo : s.repos()) {
                TimerTicker ticker = new TimerTicker(s, repo, clock, IngressService::newEventId,
                        tick -> ingress.receive(settings.user(), IngressDoor.TIMER, tick));
                scheduler.execute(() -> fire(ticker, clock.now()));
            }
        });
    }

    /** A resume committed: hand off what the pause held (off the committing thread). */
    public void resumed(@Observes(during = TransactionPhase.AFTER_SUCCESS) ServeRuntime.Resumed resumed) {
        releaseSoon(resumed.userKey());
    }

    /**
     * Queues a release of the user's held events, unless one is queued and has not begun yet (it
     * will see everything committed before it starts). Senders are answered without waiting.
     */
    public void releaseSoon(String userKey) {
        if (running && releaseQueued.add(userKey)) {
            scheduler.execute(PeriodicTask.guarded(LOG, "Release of held events", () -> {
                releaseQueued.remove(userKey);
                release(userKey);
            }));
        }
    }

    /** Fires {@code ticker} and schedules its next firing, just after the bucket boundary. */
    private void fire(TimerTicker ticker, Instant due) {
        if (!running) {
            return;
        }
        Instant next = ticker.fire(due);
        long delay = Math.max(0, next.toEpochMilli() - clock.millis()) + BOUNDARY_MARGIN_MS;
        if (running) {
            scheduler.schedule(() -> fire(ticker, next), delay, TimeUnit.MILLISECONDS);
        }
    }

    private void release(String userKey) {
        try {
            ingress.release(userKey);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Releasing the held events of " + userKey
                    + " failed; the periodic sweep retries", e);
        }
    }

    private void forgetOldRecords() {
        int keys = ingress.forgetDedupeKeys(settings.dedupeRetention());
        int events = settings.recordsRetention().map(ingress::forgetRecords).orElse(0);
        if (keys + events > 0) {
            LOG.info(() -> "Forgot " + keys + " ingress dedupe keys and " + events + " journalled events past retention");
        }
    }

    private void releaseLeftovers() {
        ingress.releaseAll();
    }

    @PreDestroy
    void stop() {
        running = false;
        scheduler.shutdownNow();
    }
}
