package dev.switchboard.core.lane;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps this instance's leases: the heartbeat renews the lease of every execution here and stops
 * those whose lease is no longer held; the watchdog stops those whose local deadline passed
 * without a renewal (the database, or this process, was too slow); the poll wakes lanes that
 * nobody drives. The watchdog runs on a thread of its own, so a renewal stuck in the database
 * cannot keep a late execution going. Plain Java with an injected monotonic clock.
 */
final class LeaseKeeper {

    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class.getName());

    private final LaneStore store;
    private final LaneRunner runner;
    private final String owner;
    private final long leaseNanos;
    private final long marginNanos;
    private final LongSupplier ticker;
    /** When the heartbeat last completed (renewed or failed trying); start-up counts as one. */
    private volatile long lastHeartbeatNanos;
    /** When the deadline watchdog last ran; start-up counts as one. */
    private volatile long lastWatchdogNanos;

    LeaseKeeper(LaneStore store, LaneRunner runner, String owner, long leaseMs, long marginMs, LongSupplier ticker) {
        this.store = store;
        this.runner = runner;
        this.owner = owner;
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMs);
        this.marginNanos = TimeUnit.MILLISECONDS.toNanos(marginMs);
        this.ticker = ticker;
        this.lastHeartbeatNanos = ticker.getAsLong();
        this.lastWatchdogNanos = lastHeartbeatNanos;
    }

    /**
     * Renews the leases of the executions here. One that the database says is no longer held —
     * it expired, was taken over, or its run ended elsewhere — is stopped; a lease held for nothing
     * executing here (a claim whose commit was never learned) is adopted by waking its lane.
     */
    void heartbeat() {
        List<Execution> live = runner.executions();
        long anchor = ticker.getAsLong();
        LaneStore.Renewal renewal;
        try {
            renewal = store.renew(owner, live.stream().map(Execution::key).toList());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Lease renewal failed; executions stop at their lease deadlines unless it recovers", e);
            beat();
            return;
        }
        long deadline = anchor + leaseNanos - marginNanos;
        for (Execution e : live) {
            if (renewal.held().contains(e.key())) {
                e.renewed(deadline);
            } else if (e.isWorking() && e.stop(Execution.Stop.LEASE_LOST)) {
                // (One whose engine is done is being recorded: its finish may have moved the lease on.)
                LOG.warning(() -> e + " no longer holds its lease (expired, taken over or ended elsewhere); stopped");
            }
        }
        renewal.orphanedThreads().forEach(runner::wake);
        beat();
    }

    /** Stops every execution whose lease deadline passed without a renewal. */
    void enforceDeadlines() {
        long now = ticker.getAsLong();
        lastWatchdogNanos = now;
        for (Execution e : runner.executions()) {
            if (e.isWorking() && e.pastDeadline(now) && e.stop(Execution.Stop.LEASE_LOST)) {
                LOG.warning(() -> e + " passed its lease deadline without a renewal; stopped before the lease can expire");
            }
        }
    }

    /** Wakes lanes that some instance should drive, as many as there are free slots. */
    void poll() {
        if (!runner.isAccepting()) {
            return;
        }
        int free = runner.freeSlots();
        if (free > 0) {
            store.claimableThreads(free).forEach(runner::wake);
        }
    }

    /** True while the heartbeat has completed within the last lease period (its timer is alive and not stuck). */
    boolean heartbeatCurrent() {
        return ticker.getAsLong() - lastHeartbeatNanos < leaseNanos;
    }

    /** Milliseconds since the heartbeat last completed, renewed or failed trying: how long a stuck one has been stuck. */
    long heartbeatAgeMs() {
        return TimeUnit.NANOSECONDS.toMillis(ticker.getAsLong() - lastHeartbeatNanos);
    }

    /** Milliseconds since the deadline watchdog last ran (every 50 ms on a timer thread of its own). */
    long watchdogAgeMs() {
        return TimeUnit.NANOSECONDS.toMillis(ticker.getAsLong() - lastWatchdogNanos);
    }

    private void beat() {
        lastHeartbeatNanos = ticker.getAsLong();
    }
}
