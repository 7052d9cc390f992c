package dev.switchboard.core.notify;

import java.util.concurrent.TimeUnit;

/**
 * Decides which pump passes read the whole log. A pass woken by a local commit only stamps and
 * delivers this instance's notifications; a full pass also reads what other instances sequenced.
 * Full passes come on every poll tick, on a subscriber's request, and at least once per poll
 * interval however often local commits wake the pump — so another instance's notification never
 * waits behind a busy local stream. Plain: the caller passes the monotonic time.
 */
final class PumpPasses {

    private final long pollNanos;
    private long lastFullNanos;

    PumpPasses(long pollMs, long nowNanos) {
        this.pollNanos = TimeUnit.MILLISECONDS.toNanos(pollMs);
        this.lastFullNanos = nowNanos;
    }

    /**
     * @param woken the pass was woken by a local commit (not a poll tick)
     * @param requested a subscriber asked for a pass that sees everything committed before it
     */
    synchronized boolean full(boolean woken, boolean requested, long nowNanos) {
        boolean full = !woken || requested || nowNanos - lastFullNanos >= pollNanos;
        if (full) {
            lastFullNanos = nowNanos;
        }
        return full;
    }
}
