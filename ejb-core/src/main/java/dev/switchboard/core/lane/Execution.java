package dev.switchboard.core.lane;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * One attempt of one run executing on this instance. It may execute while its lease's local
 * deadline — renewal time plus the lease, minus a margin, by the monotonic clock — lies ahead; the
 * database's lease ends no earlier, so another owner can only claim the run after this one has
 * stopped. {@code outcome} completes with its work's result, or early when the execution is stopped.
 */
final class Execution {

    /** Why an execution was stopped before its work finished. */
    enum Stop {
        /** The run ended in the database (cancelled, interrupted): its work stops; the result would be fenced. */
        ENDED_ELSEWHERE,
        /** A newer attempt of the same run was claimed here. */
        SUPERSEDED,
        /** Its lease is no longer held (renewal refused) or may have expired (deadline passed unrenewed). */
        LEASE_LOST,
        /** This instance is stopping; the lane is handed back. */
        SHUTDOWN;

        /** After these the attempt may no longer own its lease: its result is not written. */
        boolean discardsResult() {
            return this != ENDED_ELSEWHERE;
        }
    }

    private final Claim claim;
    private final LongSupplier ticker;
    private final CompletableFuture<JsonObject> outcome = new CompletableFuture<>();
    private final AtomicReference<Stop> stopped = new AtomicReference<>();
    private volatile long deadlineNanos;
    private long startedNanos;
    /** Set once, before the execution is registered where anyone else could stop it. */
    private RunWork.Job job;

    private Execution(Claim claim, long deadlineNanos, LongSupplier ticker) {
        this.claim = claim;
        this.deadlineNanos = deadlineNanos;
        this.ticker = ticker;
    }

    /** The execution of {@code claim} with its work prepared, not started. */
    static Execution prepared(Claim claim, long deadlineNanos, LongSupplier ticker, RunWork work) {
        Execution execution = new Execution(claim, deadlineNanos, ticker);
        execution.job = work.prepare(claim, execution::mayContinue);
        execution.startedNanos = ticker.getAsLong(); // what it took counts from here: preparing is not executing
        return execution;
    }

    /**
     * Whoever notices the deadline first — the work checking, or the watchdog — stops the execution
     * as having lost its lease, before the work can report a failure of its own.
     */
    private boolean mayContinue() {
        if (!pastDeadline(ticker.getAsLong())) {
            return true;
        }
        stop(Stop.LEASE_LOST);
        return false;
    }

    Claim claim() {
        return claim;
    }

    RunAttempt key() {
        return claim.key();
    }

    long threadId() {
        return claim.threadId();
    }

    /** What runs it (an engine's name). */
    String label() {
        return job.label();
    }

    /** Starts the work; its outcome completes {@link #outcome} unless the execution was stopped first. */
    void start() {
        try {
            job.start().whenComplete((output, error) -> {
                if (error != null) {
                    outcome.completeExceptionally(error);
                } else {
                    outcome.complete(output);
                }
            });
        } catch (RuntimeException e) {
            outcome.completeExceptionally(e);
        }
    }

    /** Its work is told to stop without the execution being stopped: it failed or timed out, and whatever it still does is moot. */
    void abandonWork() {
        job.stop();
    }

    /** Nothing its work still shows may follow what is written now. */
    void closeWork() {
        job.close();
    }

    CompletableFuture<JsonObject> outcome() {
        return outcome;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /** A renewal that began at {@code anchorNanos} succeeded: the lease runs until at least anchor + lease. */
    void renewed(long newDeadlineNanos) {
        if (newDeadlineNanos - deadlineNanos > 0) {
            deadlineNanos = newDeadlineNanos;
        }
    }

    /** True once the local deadline has passed: the lease may have expired in the database. */
    boolean pastDeadline(long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }

    /**
     * Stops the work (if it is still working) for {@code reason}; the first reason wins. The
     * work is told at once and {@link #outcome} completes exceptionally, so the lane does not
     * wait for work that ignores it.
     */
    boolean stop(Stop reason) {
        if (!stopped.compareAndSet(null, reason)) {
            job.stop(); // returns once the work has been told, by whichever thread stopped it first
            return false;
        }
        // The outcome first: work that fails because it was told to stop reports nothing of its own.
        outcome.completeExceptionally(new CancellationException(
                "run " + claim.runId() + " attempt " + claim.attempt() + " stopped: " + reason));
        job.stop();
        return true;
    }

    /** True while the work has produced no outcome yet (a done one is being recorded, behind the fence). */
    boolean isWorking() {
        return !outcome.isDone();
    }

    /** Why it was stopped, or null. */
    Stop stopReason() {
        return stopped.get();
    }

    @Override
    public String toString() {
        return "run " + claim.runId() + " attempt " + claim.attempt();
    }

    /** How long since this execution began, by its ticker. */
    Duration elapsed() {
        return Duration.ofNanos(ticker.getAsLong() - startedNanos);
    }
}
