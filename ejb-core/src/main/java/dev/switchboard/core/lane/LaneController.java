package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.clock.PeriodicTask;
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
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Drives lanes on this instance: the container's side of {@link LaneRunner} (executions),
 * {@link LeaseKeeper} (heartbeat, deadlines, poll) and {@link LaneSlots} (slots and wake-ups),
 * which hold the logic. A committed run wakes its lane at once ({@link #wake}); a lane, once
 * claimed, runs its queue back to back on its slot; a poll picks up lanes nobody drives.
 */
@Singleton
@Startup
@DependsOn("SchemaBootstrap")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class LaneController {

    private static final Logger LOG = Logger.getLogger(LaneController.class.getName());
    private static final long WATCHDOG_MS = 50;
    private static final long MIN_RECORD_RETRY_MS = 30_000;

    /**
     * Lane work and timers run on threads of their own (created with the container's context), not
     * on the server's shared pool: there, under load, a heartbeat queued behind requests ran
     * seconds late and let live leases expire.
     */
    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    LaneLedger ledger;

    @Inject
    LaneSettings settings;

    @Inject
    RunWork work;

    @Inject
    RunWatch watch;

    @Inject
    InstanceClock clock;

    @Inject
    Meters meters;

    @Inject
    LaneFeatures features;

    @EJB
    InstanceBeacon beacon;

    private ExecutorService workers;
    private ScheduledExecutorService timers;
    private ScheduledFuture<?> polling;
    private LaneRunner runner;
    private LeaseKeeper keeper;
    private String owner;

    @PostConstruct
    void start() {
        owner = settings.newOwnerName();
        workers = Executors.newFixedThreadPool(settings.workerThreads(), threadFactory);
        List<LaneSweep> sweeps = features.sweeps(); // finds the features: a mistaken setting of one stops the start here
        String workName = work.name(); // and the work: a mistaken engine setting stops it here too
        // Heartbeat, watchdog, poll, retries, the beacon and each feature's sweep get a thread: one stuck in the
        // database delays no other.
        timers = Executors.newScheduledThreadPool(5 + sweeps.size(), threadFactory);
        runner = new LaneRunner(ledger, work, owner, new LaneSlots(settings.maxConcurrent()), workers, timers,
                clock::nanoTime, new LaneRunner.Timing(settings.leaseMarginMs(), settings.runTimeoutMs(),
                        Math.max(MIN_RECORD_RETRY_MS, 2 * settings.leaseMs())), watch::changed, meters);
        keeper = new LeaseKeeper(ledger, runner, owner, settings.leaseMs(), settings.leaseMarginMs(), clock::nanoTime);
        timers.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "Lease heartbeat", keeper::heartbeat),
                settings.heartbeatMs(), settings.heartbeatMs(), TimeUnit.MILLISECONDS);
        timers.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "Lease deadline watchdog", keeper::enforceDeadlines),
                WATCHDOG_MS, WATCHDOG_MS, TimeUnit.MILLISECONDS);
        polling = timers.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "Poll for claimable lanes", keeper::poll),
                0, settings.pollMs(), TimeUnit.MILLISECONDS);
        timers.scheduleWithFixedDelay(this::beat, 0, settings.heartbeatMs(), TimeUnit.MILLISECONDS);
        for (LaneSweep sweep : sweeps) {
            timers.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, sweep.name(), () -> sweep.sweep(this::apply)),
                    sweep.periodMs(), sweep.periodMs(), TimeUnit.MILLISECONDS);
        }
        LOG.info(() -> "Lane controller " + owner + " started: engine " + workName + ", up to "
                + settings.maxConcurrent() + " concurrent runs, lease " + settings.leaseMs() + " ms");
        checkStuckSessionLimit();
        meters.gauge(Meters.Gauge.RUNS_EXECUTING, this::executingCount);
        meters.gauge(Meters.Gauge.LANES_MAX_CONCURRENT, settings::maxConcurrent);
        meters.startAtZero(workName);
        meters.gauge(Meters.Gauge.RUNS_QUEUED, () -> queued(q -> q.count()));
        meters.gauge(Meters.Gauge.OLDEST_QUEUED_AGE,
                () -> queued(q -> q.count() == 0 ? 0.0 : Math.max(0, clock.millis() - q.oldestCreatedAt()) / 1000.0));
    }

    private Number queued(Function<QueuedRuns, Number> figure) {
        try {
            return figure.apply(ledger.queued());
        } catch (RuntimeException e) {
            return Double.NaN; // a scrape while the database is down reports no figure instead of failing
        }
    }

    /**
     * An instance frozen inside a transaction holds its row locks — a lane's among them — until
     * the database ends its session; with no limit, or one beyond the lease, no other instance can
     * take over its expired leases meanwhile. Says so at start-up rather than in an outage.
     */
    private void checkStuckSessionLimit() {
        try {
            ledger.idleInTransactionTimeoutMs().ifPresent(ms -> {
                if (ms == 0 || ms > settings.leaseMs()) {
                    LOG.warning("PostgreSQL's idle_in_transaction_session_timeout is " + ms + " ms for this instance's "
                            + "sessions: an instance frozen inside a transaction keeps its lanes locked "
                            + (ms == 0 ? "until it goes on" : "for that long") + ", beyond the lease (" + settings.leaseMs()
                            + " ms). Leave DB_IDLE_IN_TRANSACTION_TIMEOUT_MS unset (it follows the lease) or at most the lease.");
                } else {
                    LOG.info(() -> "PostgreSQL ends this instance's sessions idle inside a transaction after " + ms + " ms");
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not read the database's idle-in-transaction limit", e);
        }
    }

    /** Tells the controller that the thread may have runnable work (e.g. a run was just committed). */
    public void wake(long threadId) {
        runner.wake(threadId);
    }

    /**
     * Runs {@code store} — a transaction that may claim an idle lane for the owner name it is given
     * (null at capacity or when stopping) — on a reserved slot, then executes what it claimed here.
     * When the transaction fails (perhaps after committing), the lane {@code threadId} (null when
     * unknown) is woken, and its claim adopts anything the transaction took for this instance.
     */
    public <T> T admit(Long threadId, Function<String, T> store, Function<T, ClaimResult> claimOf) {
        boolean reserved = runner.reserve();
        long anchor = clock.nanoTime();
        T outcome;
        try {
            outcome = store.apply(reserved ? owner : null);
        } catch (RuntimeException e) {
            if (reserved) {
                runner.admitFailed(threadId);
            }
            throw e;
        }
        ClaimResult claim = claimOf.apply(outcome);
        if (reserved) {
            runner.admitted(claim, anchor);
        } else {
            claim.abandonedRunIds().forEach(watch::changed);
        }
        return outcome;
    }

    /**
     * Runs ended in the database while executing (cancelled, interrupted): their engines here stop,
     * and their results are not written.
     */
    public void cancelled(List<String> runIds) {
        runner.stop(runIds, Execution.Stop.ENDED_ELSEWHERE);
        if (!runIds.isEmpty()) { // what the features keep below them closes now, not at their next sweep
            try {
                workers.execute(() -> features.sweeps().forEach(sweep -> {
                    try {
                        sweep.sweep(this::apply);
                    } catch (RuntimeException e) {
                        LOG.log(Level.FINE, sweep.name() + " failed; it runs again at its next period", e);
                    }
                }));
            } catch (RejectedExecutionException stopping) {
                LOG.fine("Not swept: the lane controller is stopping");
            }
        }
    }

    /** Applies what a change made by a feature did to other lanes, after its commit. */
    private void apply(LaneEffects effects) {
        effects.wake().forEach(this::wake);
        runner.cancelLanes(effects.cancel());
    }

    public boolean isRunning() {
        return runner.isAccepting();
    }

    /** Milliseconds since the lease heartbeat last completed (renewed or failed trying). */
    public long heartbeatAgeMs() {
        return keeper.heartbeatAgeMs();
    }

    /** Milliseconds since the lane timers last ran their deadline watchdog. */
    public long timersAgeMs() {
        return keeper.watchdogAgeMs();
    }

    /** False when the lease heartbeat has not completed within a lease period: this instance's leases are at risk. */
    public boolean heartbeatCurrent() {
        return keeper.heartbeatCurrent();
    }

    public int executingCount() {
        return runner.executions().size();
    }

    /** The attempts executing here. */
    public List<RunAttempt> executing() {
        return runner.executions().stream().map(Execution::key).toList();
    }

    /** The lease owner name of this start (the instance's name and a per-start suffix). */
    public String instanceId() {
        return owner;
    }

    /**
     * Graceful stop: no new claims; in-flight runs may finish within the grace period while the
     * heartbeat keeps their leases; the rest are stopped, and every lease this instance still holds
     * in the database — including chains committed meanwhile — is handed back, so any instance
     * continues at once and no crash is counted.
     */
    @PreDestroy
    void stop() {
        runner.stopAccepting();
        polling.cancel(false);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.shutdownGraceMs());
        while (!runner.executions().isEmpty() && System.nanoTime() - deadline < 0) {
            sleep(20);
        }
        runner.stopAll(Execution.Stop.SHUTDOWN);
        workers.shutdown();
        try {
            if (!workers.awaitTermination(settings.shutdownGraceMs(), TimeUnit.MILLISECONDS)) {
                LOG.warning("Shutdown: lane work still running after the grace period");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int handedBack = 0;
        try {
            for (long threadId : ledger.leasedTo(owner)) {
                if (ledger.handBack(threadId, owner)) {
                    handedBack++;
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Shutdown: handing lanes back failed; their leases will expire", e);
        }
        timers.shutdownNow();
        try {
            beacon.stopped(owner);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Shutdown: the instance beacon could not record the stop; it shows late, then is forgotten", e);
        }
        int count = handedBack;
        LOG.info(() -> "Lane controller " + owner + " stopped; handed back " + count + " lanes");
    }

    /** Tells the cluster this start is alive; a database that does not answer only makes it look late. */
    private void beat() {
        try {
            beacon.beat(owner, settings.instanceId(), runner.executions().size());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Instance beacon failed; it beats again at its next period", e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
