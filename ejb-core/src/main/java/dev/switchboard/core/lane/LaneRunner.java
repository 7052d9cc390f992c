package dev.switchboard.core.lane;

import dev.switchboard.core.metrics.Meters;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs this instance's executions: claims woken lanes, starts each claim's {@link RunWork} with a
 * timeout and a way to stop it, records the result behind the fence — retrying a write whose commit
 * outcome is unknown, and adopting whatever that write claimed — and chains the lane's next run on
 * the same slot; the work is closed before its result is written.
 * Executions are keyed by run and attempt, so a newer attempt claimed here stops the older
 * one and an older one's end never touches the newer one. Plain Java: the container supplies the
 * store, threads and clock, unit tests supply fakes.
 */
final class LaneRunner {

    private static final Logger LOG = Logger.getLogger(LaneRunner.class.getName());
    private static final long FIRST_RETRY_MS = 50;
    private static final long MAX_RETRY_MS = 2_000;
    private static final long CLAIM_RETRY_MS = 500;

    /**
     * @param leaseMarginMs how much before its lease an execution stops when renewals fail
     * @param runTimeoutMs the longest a run's work may take
     * @param recordRetryMs how long a result whose write fails is retried before the run is left to lease recovery
     */
    record Timing(long leaseMarginMs, long runTimeoutMs, long recordRetryMs) {
    }

    private final LaneStore store;
    private final RunWork work;
    private final String owner;
    private final LaneSlots slots;
    private final Executor workers;
    private final ScheduledExecutorService timers;
    private final LongSupplier ticker;
    private final Timing timing;
    private final Consumer<String> runChanged;
    private final Meters meters;
    private final ConcurrentHashMap<RunAttempt, Execution> executions = new ConcurrentHashMap<>();
    private volatile boolean accepting = true;

    LaneRunner(LaneStore store, RunWork work, String owner, LaneSlots slots, Executor workers,
            ScheduledExecutorService timers, LongSupplier ticker, Timing timing, Consumer<String> runChanged, Meters meters) {
        this.store = store;
        this.work = work;
        this.owner = owner;
        this.slots = slots;
        this.workers = workers;
        this.timers = timers;
        this.ticker = ticker;
        this.timing = timing;
        this.runChanged = runChanged;
        this.meters = meters;
    }

    /** The thread may have runnable work. */
    void wake(long threadId) {
        drive(slots.wake(threadId));
    }

    /** Takes a slot for a claim made inside another transaction; false at capacity or when stopping. */
    boolean reserve() {
        return slots.reserve();
    }

    /** The transaction of a reservation committed: executes what it claimed, or gives the slot back. */
    void admitted(ClaimResult result, long anchorNanos) {
        result.abandonedRunIds().forEach(runChanged);
        if (result.claim().isPresent()) {
            launch(result.claim().get(), anchorNanos, null);
        } else {
            drive(slots.unreserve());
        }
    }

    /**
     * The transaction of a reservation failed — perhaps after committing: the slot is given back and
     * the lane woken, whose claim adopts anything that transaction claimed for this instance.
     */
    void admitFailed(Long threadId) {
        drive(slots.unreserve());
        if (threadId != null) {
            wake(threadId);
        }
    }

    /** Stops the executions here of these runs; {@code reason} says why. */
    void stop(List<String> runIds, Execution.Stop reason) {
        for (Execution e : executions.values()) {
            if (runIds.contains(e.claim().runId())) {
                e.stop(reason);
            }
        }
        runIds.forEach(runChanged);
    }

    void stopAll(Execution.Stop reason) {
        executions.values().forEach(e -> e.stop(reason));
    }

    /** Stops claiming and chaining (shutdown): claims still committed later are handed back by the caller. */
    void stopAccepting() {
        accepting = false;
        slots.stopAccepting();
    }

    boolean isAccepting() {
        return accepting;
    }

    List<Execution> executions() {
        return new ArrayList<>(executions.values());
    }

    int freeSlots() {
        return slots.free();
    }

    private void drive(List<LaneSlots.Dispatch> dispatches) {
        for (LaneSlots.Dispatch d : dispatches) {
            submit(() -> driveLane(d), () -> slots.end(d.threadId(), d.driver()));
        }
    }

    private void driveLane(LaneSlots.Dispatch d) {
        long anchor = ticker.getAsLong();
        ClaimResult result;
        try {
            result = store.claim(d.threadId(), owner);
        } catch (RuntimeException e) {
            // Perhaps committed: the claim made again later adopts what this one may have taken.
            LOG.log(Level.WARNING, "Claiming the lane of thread " + d.threadId() + " failed; claiming it again in "
                    + CLAIM_RETRY_MS + " ms", e);
            drive(slots.end(d.threadId(), d.driver()));
            schedule(() -> wake(d.threadId()), CLAIM_RETRY_MS);
            return;
        }
        claimed(result, anchor, d.threadId(), d.driver());
    }

    /** What a claim returned, on the slot held as {@code holder} (null: a reservation). */
    private void claimed(ClaimResult result, long anchorNanos, long threadId, Object holder) {
        result.abandonedRunIds().forEach(runChanged);
        if (result.claim().isPresent()) {
            launch(result.claim().get(), anchorNanos, holder);
        } else {
            drive(slots.end(threadId, holder));
        }
    }

    /**
     * Starts the work on the claimed attempt, on the slot held as {@code holder}. The lease's
     * local deadline counts from {@code anchorNanos}, read before the claiming transaction began,
     * so it falls no later than the lease the database granted.
     */
    private void launch(Claim claim, long anchorNanos, Object holder) {
        long threadId = claim.threadId();
        if (!accepting) {
            drive(slots.end(threadId, holder)); // stopping: the lease is handed back with the others
            return;
        }
        long deadline = anchorNanos + TimeUnit.MILLISECONDS.toNanos(claim.leaseLeftMs() - timing.leaseMarginMs());
        Execution execution = prepared(claim, deadline);
        if (executions.putIfAbsent(execution.key(), execution) != null) {
            execution.closeWork();
            drive(slots.end(threadId, holder)); // adopted twice: it already executes here
            return;
        }
        slots.drive(threadId, execution); // first: a superseded attempt that ends lets only its own slot go
        for (Execution older : executions.values()) {
            if (older.claim().runId().equals(claim.runId()) && older.claim().attempt() < claim.attempt()
                    && older.stop(Execution.Stop.SUPERSEDED)) {
                LOG.warning(() -> older + " was still executing here when " + execution + " was claimed; it was stopped");
            }
        }
        runChanged.accept(claim.runId());
        meters.runStarted(execution.label());
        execution.outcome().orTimeout(timing.runTimeoutMs(), TimeUnit.MILLISECONDS)
                .whenComplete((output, error) -> submit(() -> finish(execution, output, error), () -> release(execution)));
        execution.start();
    }

    /**
     * The execution of {@code claim} with its work prepared. A preparation that fails (a read of
     * what the run needs, in a database blip) fails this attempt as its work would, through the
     * same record: the slot never stays taken.
     */
    private Execution prepared(Claim claim, long deadline) {
        try {
            return Execution.prepared(claim, deadline, ticker, work);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Preparing run " + claim.runId() + " attempt " + claim.attempt() + " failed", e);
            return Execution.prepared(claim, deadline, ticker, RunWork.failed(e));
        }
    }

    private void finish(Execution execution, JsonObject output, Throwable error) {
        execution.closeWork(); // what it still shows must not follow the result
        Execution.Stop stop = execution.stopReason();
        if (error != null && stop != null && stop.discardsResult()) {
            LOG.info(() -> execution + " stopped (" + stop + "); nothing recorded");
            if (stop != Execution.Stop.SHUTDOWN) {
                // discarded because its lease moved on (a cancel seen by the heartbeat first lands here
                // rather than in record's fence): counted the same as a result the database fenced out
                meters.resultFenced();
            }
            release(execution);
            return;
        }
        if (error != null) {
            execution.abandonWork(); // timed out or failed: whatever the work still does is moot
        }
        String message = error != null ? failureMessage(error)
                : output == null ? "engine " + execution.label() + " returned no output" : null;
        record(execution, output == null ? null : output.toString(), message,
                ticker.getAsLong() + TimeUnit.MILLISECONDS.toNanos(timing.recordRetryMs()), FIRST_RETRY_MS);
    }

    /**
     * Writes the result behind the fence. A failed write may have committed: it is retried, and the
     * retry — fenced by then — adopts the next run the first try chained, so nothing is stranded.
     * The execution stays registered meanwhile, so its lease is renewed while it still holds it.
     */
    private void record(Execution execution, String outputJson, String errorMessage, long giveUpAtNanos,
            long retryMs) {
        long anchor = ticker.getAsLong();
        LaneStore.FinishResult result;
        try {
            result = store.finish(execution.claim(), owner, outputJson, errorMessage, accepting);
        } catch (RuntimeException e) {
            if (ticker.getAsLong() - giveUpAtNanos >= 0) {
                LOG.log(Level.SEVERE, "Recording the result of " + execution + " kept failing for "
                        + timing.recordRetryMs() + " ms; the run is left to lease recovery", e);
                release(execution);
                return;
            }
            LOG.log(Level.WARNING, "Recording the result of " + execution + " failed; retrying in " + retryMs + " ms", e);
            schedule(() -> submit(() -> record(execution, outputJson, errorMessage, giveUpAtNanos,
                    Math.min(MAX_RETRY_MS, retryMs * 2)), () -> release(execution)), retryMs);
            return;
        }
        executions.remove(execution.key(), execution);
        result.wake().forEach(this::wake);
        if (!result.cancel().isEmpty()) {
            submit(() -> cancelLanes(result.cancel()), () -> { });
        }
        if (result.fenced()) {
            LOG.info(() -> "Result of " + execution + " discarded: the run was ended elsewhere, or its lease moved on");
            meters.resultFenced();
        } else {
            Duration elapsed = execution.elapsed();
            meters.runEnded(execution.label(), errorMessage == null ? "succeeded" : "failed", elapsed,
                    elapsed.plusMillis(execution.claim().waitedMs()));
        }
        claimed(result.next(), anchor, execution.threadId(), execution);
        // Waiters last: one that posts again at once finds the slot free (or passed to the lane's next run).
        runChanged.accept(execution.claim().runId());
    }

    /**
     * Cancels the runs of these lanes (paths a reply or a timeout closed), each in a transaction
     * of its own; their executions here stop, and lanes their cancelling closes in turn follow.
     */
    void cancelLanes(List<Long> threadIds) {
        for (long threadId : threadIds) {
            try {
                LaneStore.Cancelled cancelled = store.cancelLane(threadId);
                stop(cancelled.runIds(), Execution.Stop.ENDED_ELSEWHERE);
                if (!cancelled.lanes().isEmpty()) {
                    cancelLanes(cancelled.lanes());
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Cancelling the lane of thread " + threadId + " failed; the next sweep of the"
                        + " feature that asked closes it", e);
            }
        }
    }

    /** The execution ends without recording anything; its slot (and lane, if it drove it) is let go. */
    private void release(Execution execution) {
        execution.closeWork();
        executions.remove(execution.key(), execution);
        drive(slots.end(execution.threadId(), execution));
        runChanged.accept(execution.claim().runId());
    }

    private void submit(Runnable task, Runnable ifRejected) {
        try {
            workers.execute(task);
        } catch (RejectedExecutionException stopping) {
            ifRejected.run();
        }
    }

    private void schedule(Runnable task, long delayMs) {
        try {
            timers.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            LOG.fine("Not rescheduled: the lane controller is stopping");
        }
    }

    private String failureMessage(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof TimeoutException) {
            return "run timed out after " + timing.runTimeoutMs() + " ms";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
