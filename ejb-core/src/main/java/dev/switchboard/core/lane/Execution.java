package dev.switchboard.core.lane;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.Cancellation;
import dev.switchboard.core.lifecycle.RunProgress;
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
 * stopped. {@code outcome} completes with the engine's result, or early when the execution is stopped.
 */
final class Execution {

    /** Why an execution was stopped before its engine finished. */
    enum Stop {
        /** The run ended in the database (cancelled, interrupted): the engine stops; the result would be fenced. */
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
    private final Cancellation cancellation;
    private final CompletableFuture<JsonObject> outcome = new CompletableFuture<>();
    private final AtomicReference<Stop> stopped = new AtomicReference<>();
    private volatile long deadlineNanos;
    private final long startedNanos;
    private final RunProgress progress;
    private final AgentEngine engine;

    Execution(Claim claim, long deadlineNanos, LongSupplier ticker, RunProgress progress, AgentEngine engine) {
        this.claim = claim;
        this.progress = progress;
        this.engine = engine;
        this.deadlineNanos = deadlineNanos;
        this.ticker = ticker;
        this.startedNanos = ticker.getAsLong();
        // Whoever notices the deadline first — the engine checking, or the watchdog — stops the
        // execution as having lost its lease, before the engine can report a failure of its own.
        this.cancellation = new Cancellation(() -> {
            if (!pastDeadline(this.ticker.getAsLong())) {
                return true;
            }
            stop(Stop.LEASE_LOST);
            return false;
        });
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

    Cancellation cancellation() {
        return cancellation;
    }

    /** The engine this execution runs on (the thread's choice, or the instance's). */
    AgentEngine engine() {
        return engine;
    }

    /** Where the engine shows what it does; closed when the execution ends. */
    RunProgress progress() {
        return progress;
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
     * Stops the engine (if it is still working) for {@code reason}; the first reason wins. The
     * engine is told at once and {@link #outcome} completes exceptionally, so the lane does not
     * wait for an engine that ignores cancellation.
     */
    boolean stop(Stop reason) {
        if (!stopped.compareAndSet(null, reason)) {
            cancellation.cancel(); // returns once the engine has been told, by whichever thread stopped it first
            return false;
        }
        // The outcome first: an engine that fails because it was told to stop reports nothing of its own.
        outcome.completeExceptionally(new CancellationException(
                "run " + claim.runId() + " attempt " + claim.attempt() + " stopped: " + reason));
        cancellation.cancel();
        return true;
    }

    /** True while the engine has produced no outcome yet (a done one is being recorded, behind the fence). */
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
