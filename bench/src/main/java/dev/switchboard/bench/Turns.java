package dev.switchboard.bench;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What all subscribers share: the benchmark's thread keys (notifications for other threads are
 * "foreign" and not counted), a dense index per turn id (each subscriber keeps a bit set of the
 * turns it received), the count of first deliveries over all subscribers, and the span of the
 * turns' {@code completed_at}.
 */
final class Turns {

    private final Set<String> threadKeys;
    private final Map<String, Integer> index = new ConcurrentHashMap<>();
    private final AtomicInteger nextIndex = new AtomicInteger();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong firstCompletedUs = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastCompletedUs = new AtomicLong(Long.MIN_VALUE);

    Turns(Set<String> threadKeys) {
        this.threadKeys = Set.copyOf(threadKeys);
    }

    boolean ours(String threadId) {
        return threadId != null && threadKeys.contains(threadId);
    }

    /** The turn's index, assigned when any subscriber first sees it. */
    int indexOf(String turnId, long completedAtUs) {
        return index.computeIfAbsent(turnId, id -> {
            firstCompletedUs.accumulateAndGet(completedAtUs, Math::min);
            lastCompletedUs.accumulateAndGet(completedAtUs, Math::max);
            return nextIndex.getAndIncrement();
        });
    }

    void deliveredOnce() {
        delivered.incrementAndGet();
    }

    /** First deliveries of a turn/completed to a subscriber, summed over subscribers. */
    long delivered() {
        return delivered.get();
    }

    /** Turns of the benchmark's threads that completed, as seen by any subscriber. */
    int distinct() {
        return nextIndex.get();
    }

    /** Epoch microseconds of the earliest and latest {@code completed_at}; null when none was seen. */
    long[] completedSpanUs() {
        long first = firstCompletedUs.get();
        return first == Long.MAX_VALUE ? null : new long[] {first, lastCompletedUs.get()};
    }
}
