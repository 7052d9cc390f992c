package dev.switchboard.core.metrics;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What happened on this instance since the last look: runs ended by outcome with their accept to
 * finish latencies, messages accepted, webhook attempts, ingress events. The dashboard's charts are
 * made of these, taken every few seconds ({@link #take}); Prometheus reads the cumulative meters
 * instead. Recording costs an increment or two, without locks.
 *
 * <p>Latencies go into fixed buckets, ten per decade from 1 ms to 1,000 s, so a quantile is known
 * to within a bucket (at most 25 % high) — chart precision, in a few hundred bytes, where an exact
 * reservoir would grow with the rate.
 */
public final class IntervalFigures {

    /** One interval's figures; the latency quantiles are null when no run ended in it. */
    public record Taken(long runsSucceeded, long runsFailed, Long latencyP50Ms, Long latencyP99Ms,
            long messagesAccepted, long webhooksDelivered, long webhooksNotDelivered, long ingressEvents) {
    }

    private static final double[] STEPS = {1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8};
    /** Upper bounds in milliseconds, ascending; a latency above the last counts in the last. */
    static final long[] BOUNDS_MS = bounds();

    private final AtomicLong runsSucceeded = new AtomicLong();
    private final AtomicLong runsFailed = new AtomicLong();
    private final AtomicLong messagesAccepted = new AtomicLong();
    private final AtomicLong webhooksDelivered = new AtomicLong();
    private final AtomicLong webhooksNotDelivered = new AtomicLong();
    private final AtomicLong ingressEvents = new AtomicLong();
    private final AtomicLongArray latencyCounts = new AtomicLongArray(BOUNDS_MS.length);

    private static long[] bounds() {
        long[] b = new long[STEPS.length * 6 + 1];
        int i = 0;
        for (long decade = 1; decade <= 100_000; decade *= 10) {
            for (double step : STEPS) {
                b[i++] = Math.round(step * decade);
            }
        }
        b[i] = 1_000_000;
        return b;
    }

    /** A run ended; {@code latency} from its acceptance to the recorded end (null: unknown). */
    public void runEnded(boolean succeeded, Duration latency) {
        (succeeded ? runsSucceeded : runsFailed).incrementAndGet();
        if (latency != null) {
            latencyCounts.incrementAndGet(bucketOf(latency.toMillis()));
        }
    }

    public void messagesAccepted(int count) {
        messagesAccepted.addAndGet(count);
    }

    public void webhookAttempt(boolean delivered) {
        (delivered ? webhooksDelivered : webhooksNotDelivered).incrementAndGet();
    }

    public void ingressEvent() {
        ingressEvents.incrementAndGet();
    }

    static int bucketOf(long ms) {
        int low = 0;
        int high = BOUNDS_MS.length - 1;
        while (low < high) { // the first bound at or above ms
            int mid = (low + high) >>> 1;
            if (BOUNDS_MS[mid] >= ms) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /**
     * The figures since the last call, and a fresh start. A run ending while this reads may count in
     * this interval or the next, never in both or neither.
     */
    public Taken take() {
        long[] counts = new long[BOUNDS_MS.length];
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = latencyCounts.getAndSet(i, 0);
            total += counts[i];
        }
        return new Taken(runsSucceeded.getAndSet(0), runsFailed.getAndSet(0), quantile(counts, total, 0.50),
                quantile(counts, total, 0.99), messagesAccepted.getAndSet(0), webhooksDelivered.getAndSet(0),
                webhooksNotDelivered.getAndSet(0), ingressEvents.getAndSet(0));
    }

    /** The upper bound of the bucket holding the {@code q} quantile; null without any value. */
    static Long quantile(long[] counts, long total, double q) {
        if (total == 0) {
            return null;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return BOUNDS_MS[i];
            }
        }
        return BOUNDS_MS[counts.length - 1];
    }
}
