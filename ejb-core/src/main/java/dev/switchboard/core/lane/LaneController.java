package dev.switchboard.core.lane;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.EngineRequest;
import dev.switchboard.core.engine.EngineSelector;
import dev.switchboard.core.run.RunWatch;
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
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Drives lanes on this instance, on its own worker threads. A committed run wakes its lane at once ({@link #wake}); a lane,
 * once claimed, keeps its slot and runs its queue back to back (each completion claims the next
 * run in the same transaction). A periodic poll picks up lanes nobody drives — work ingested on a
 * busy or crashed instance — and a heartbeat renews the leases of the runs executing here.
 * Decisions are the {@link LaneLedger}'s and {@link LanePolicy}'s; this class only orchestrates.
 */
@Singleton
@Startup
@DependsOn("SchemaBootstrap")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class LaneController {

    private static final Logger LOG = Logger.getLogger(LaneController.class.getName());
    private static final long[] FINISH_RETRY_MS = {50, 250, 1000};

    /**
     * Lane work and timers run on threads of their own (created with the container's context),
     * not on the server's shared pool: there, under load, a heartbeat queued behind requests ran
     * seconds late and let live leases expire.
     */
    @Resource
    ManagedThreadFactory threadFactory;

    private ExecutorService executor;
    private ScheduledExecutorService scheduler;

    @EJB
    LaneLedger ledger;

    @Inject
    LaneSettings settings;

    @Inject
    EngineSelector engines;

    @Inject
    RunWatch watch;

    private Semaphore slots;
    private final Object pendingLock = new Object();
    private final LinkedHashSet<Long> pending = new LinkedHashSet<>();
    /** Threads driven here, with "woken while driven" flags so that no wake-up is lost. */
    private final ConcurrentHashMap<Long, Boolean> driven = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Execution> executing = new ConcurrentHashMap<>();
    private final List<ScheduledFuture<?>> timers = new ArrayList<>();
    private volatile boolean accepting;
    private volatile long lastHeartbeat;
    private AgentEngine engine;
    private String owner;

    /** A run executing here; {@code outcome} completes with the engine's result, or early when the run is stopped. */
    private record Execution(Claim claim, AtomicBoolean cancelled, CompletableFuture<JsonObject> outcome) {
    }

    @PostConstruct
    void start() {
        engine = engines.engine();
        owner = settings.instanceId();
        executor = Executors.newFixedThreadPool(settings.workerThreads(), threadFactory);
        scheduler = Executors.newScheduledThreadPool(2, threadFactory); // a slow poll must not delay a heartbeat
        slots = new Semaphore(settings.maxConcurrent());
        accepting = true;
        timers.add(scheduler.scheduleWithFixedDelay(this::heartbeat, settings.heartbeatMs(),
                settings.heartbeatMs(), TimeUnit.MILLISECONDS));
        timers.add(scheduler.scheduleWithFixedDelay(this::poll, 0, settings.pollMs(), TimeUnit.MILLISECONDS));
        LOG.info(() -> "Lane controller " + owner + " started: engine " + engine.name() + ", up to "
                + settings.maxConcurrent() + " concurrent runs, lease " + settings.leaseMs() + " ms");
    }

    /** Tells the controller that the thread may have runnable work (e.g. a run was just committed). */
    public void wake(long threadId) {
        if (driven.computeIfPresent(threadId, (id, woken) -> Boolean.TRUE) != null) {
            return; // its driver claims the next run when the current one finishes
        }
        synchronized (pendingLock) {
            pending.add(threadId);
        }
        drain();
    }

    /**
     * Reserves an execution slot for a run about to be claimed inside another transaction (an
     * ingest into an idle lane). Returns the owner name to claim for, or null when this instance
     * is at capacity or stopping. Every reservation ends in {@link #start} or {@link #releaseSlot}.
     */
    public String reserveSlot() {
        return accepting && slots.tryAcquire() ? owner : null;
    }

    /** Gives back a reservation that claimed nothing; null (no reservation) is ignored. */
    public void releaseSlot(String reservation) {
        if (reservation != null) {
            slots.release();
            drain();
        }
    }

    /**
     * Runs {@code store} — a transaction that may claim an idle lane for the owner name it is
     * given (null at capacity) — on a reserved slot, then starts the claimed run here, or gives
     * the slot back. Returns the transaction's outcome.
     */
    public <T> T admit(Function<String, T> store, Function<T, ClaimResult> claimOf) {
        String claimFor = reserveSlot();
        T outcome = null;
        try {
            outcome = store.apply(claimFor);
        } finally {
            if (outcome == null || claimOf.apply(outcome).claim().isEmpty()) {
                releaseSlot(claimFor);
            }
        }
        ClaimResult claim = claimOf.apply(outcome);
        claim.abandonedRunIds().forEach(watch::changed);
        claim.claim().ifPresent(this::start);
        return outcome;
    }

    /** Executes a run claimed under a reservation, on its slot. */
    public void start(Claim claim) {
        driven.put(claim.threadId(), Boolean.FALSE);
        executor.execute(() -> execute(claim));
    }

    /**
     * Runs ended in the database while executing (cancelled, interrupted): their engines here are
     * asked to stop, and their slots are freed at once (the run's late result would be fenced out).
     */
    public void cancelled(List<String> runIds) {
        for (String runId : runIds) {
            Execution execution = executing.get(runId);
            if (execution != null) {
                execution.cancelled().set(true);
                execution.outcome().completeExceptionally(new CancellationException("run " + runId + " was stopped"));
            }
            watch.changed(runId);
        }
    }

    public boolean isRunning() {
        return accepting;
    }

    public int executingCount() {
        return executing.size();
    }

    public String instanceId() {
        return owner;
    }

    private void drain() {
        while (accepting) {
            if (!slots.tryAcquire()) {
                return;
            }
            Long threadId;
            synchronized (pendingLock) {
                Iterator<Long> it = pending.iterator();
                threadId = it.hasNext() ? it.next() : null;
                if (threadId != null) {
                    it.remove();
                }
            }
            if (threadId == null) {
                slots.release();
                synchronized (pendingLock) {
                    if (pending.isEmpty()) {
                        return;
                    }
                }
                continue;
            }
            long id = threadId;
            executor.execute(() -> driveLane(id));
        }
    }

    /** Runs on a slot: claims the lane and starts its head, or gives the slot back. */
    private void driveLane(long threadId) {
        try {
            ClaimResult result = ledger.claim(threadId, owner);
            result.abandonedRunIds().forEach(watch::changed);
            if (result.claim().isPresent()) {
                driven.put(threadId, Boolean.FALSE);
                execute(result.claim().get());
                return;
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Claiming lane of thread " + threadId + " failed; the poll retries it", e);
        }
        slots.release();
        drain();
    }

    private void execute(Claim claim) {
        AtomicBoolean cancelled = new AtomicBoolean();
        Execution execution = new Execution(claim, cancelled, new CompletableFuture<>());
        executing.put(claim.runId(), execution);
        watch.changed(claim.runId());
        EngineRequest request = new EngineRequest(claim.runId(), claim.userKey(), claim.threadKey(),
                claim.inputText(), claim.deliveryMode(), claim.attempt(), cancelled::get);
        try {
            execution.outcome().orTimeout(settings.runTimeoutMs(), TimeUnit.MILLISECONDS)
                    .whenComplete((output, error) -> executor.execute(() -> finish(execution, output, error)));
            engine.execute(request).whenComplete((output, error) -> {
                if (error != null) {
                    execution.outcome().completeExceptionally(error);
                } else {
                    execution.outcome().complete(output);
                }
            });
        } catch (RuntimeException e) {
            execution.outcome().completeExceptionally(e);
        }
    }

    private void finish(Execution execution, JsonObject output, Throwable error) {
        Claim claim = execution.claim();
        String errorMessage = error == null ? null : failureMessage(error);
        if (error != null) {
            execution.cancelled().set(true);
        }
        String outputJson = output == null ? null : output.toString();
        if (error == null && output == null) {
            errorMessage = "engine " + engine.name() + " returned no output";
        }
        LaneLedger.FinishResult result = null;
        for (int i = 0; result == null; i++) {
            try {
                result = ledger.finish(claim, owner, outputJson, errorMessage);
            } catch (RuntimeException e) {
                if (i >= FINISH_RETRY_MS.length) {
                    // Stop renewing: the lease expires and any instance re-executes the run.
                    LOG.log(Level.SEVERE, "Recording the result of run " + claim.runId()
                            + " failed; its lease will expire and the run will be retried", e);
                    executing.remove(claim.runId());
                    endLane(claim.threadId());
                    return;
                }
                sleep(FINISH_RETRY_MS[i]);
            }
        }
        executing.remove(claim.runId());
        watch.changed(claim.runId());
        if (result.fenced()) {
            LOG.info(() -> "Result of run " + claim.runId() + " attempt " + claim.attempt()
                    + " discarded: the run was cancelled, or a newer attempt owns it");
        }
        result.next().abandonedRunIds().forEach(watch::changed);
        if (result.next().claim().isPresent() && accepting) {
            execute(result.next().claim().get());
        } else if (result.next().claim().isPresent()) {
            ledger.release(List.of(result.next().claim().get()), owner);
            endLane(claim.threadId());
        } else {
            endLane(claim.threadId());
        }
    }

    private void endLane(long threadId) {
        Boolean wokenWhileDriven = driven.remove(threadId);
        slots.release();
        if (Boolean.TRUE.equals(wokenWhileDriven)) {
            wake(threadId);
        } else {
            drain();
        }
    }

    private void heartbeat() {
        long late = System.currentTimeMillis() - lastHeartbeat - settings.heartbeatMs();
        if (lastHeartbeat > 0 && late > settings.leaseMs() / 3) {
            LOG.warning("Heartbeat ran " + late + " ms late; leases may expire under this load");
        }
        lastHeartbeat = System.currentTimeMillis();
        try {
            List<String> runIds = new ArrayList<>(executing.keySet());
            if (!runIds.isEmpty()) {
                int held = ledger.renew(owner, runIds);
                // Fewer rows than runs is normal: a lane whose run finished while the renewal waited
                // for its row lock has moved its lease on. A lease really lost shows as a fenced finish.
                LOG.fine(() -> "Renewed " + held + " of " + runIds.size() + " leases");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Lease renewal failed", e);
        }
    }

    private void poll() {
        if (!accepting) {
            return;
        }
        try {
            int free = slots.availablePermits();
            if (free <= 0) {
                return;
            }
            for (Long threadId : ledger.claimableThreads(free)) {
                wake(threadId);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Polling for claimable lanes failed", e);
        }
    }

    private String failureMessage(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TimeoutException) {
            return "run timed out after " + settings.runTimeoutMs() + " ms";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @PreDestroy
    void stop() {
        accepting = false;
        timers.forEach(t -> t.cancel(false));
        long deadline = System.currentTimeMillis() + settings.shutdownGraceMs();
        while (!executing.isEmpty() && System.currentTimeMillis() < deadline) {
            sleep(20);
        }
        List<Execution> left = List.copyOf(executing.values());
        left.forEach(e -> e.cancelled().set(true));
        List<Claim> unfinished = left.stream().map(Execution::claim).toList();
        if (!unfinished.isEmpty()) {
            try {
                int released = ledger.release(unfinished, owner);
                LOG.info(() -> "Shutdown: handed back " + released + " unfinished runs");
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Shutdown: handing back runs failed; their leases will expire", e);
            }
        }
        scheduler.shutdownNow();
        executor.shutdown();
        LOG.info(() -> "Lane controller " + owner + " stopped");
    }
}
