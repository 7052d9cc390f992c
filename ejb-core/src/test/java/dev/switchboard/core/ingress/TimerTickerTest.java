package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.clock.InstanceClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A repository's timer without an executor: each firing's tick and the next due time, on a clock
 * the test sets — including a start after every instance was down (one tick for the current
 * bucket, none for the buckets missed), which took a stopped cluster and a restart to see before.
 */
class TimerTickerTest {

    private static final Duration TWO_SECONDS = Duration.ofSeconds(2);
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00.700Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);
    private final InstanceClock clock = InstanceClock.of(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    });
    private final List<EventEnvelope> ticks = new ArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();

    private TimerTicker ticker() {
        return new TimerTicker(new TickSchedule(TWO_SECONDS, List.of("acme/clock")), "acme/clock", clock,
                () -> "evt_" + ids.incrementAndGet(), ticks::add);
    }

    private static long bucketOf(EventEnvelope tick) {
        String key = tick.dedupeKey();
        return Long.parseLong(key.substring(key.lastIndexOf(':') + 1));
    }

    @Test
    void aStartTicksForTheCurrentBucketAndEachFiringNamesTheNextBoundary() {
        TimerTicker ticker = ticker();
        Instant next = ticker.fire(now.get());
        assertEquals(1, ticks.size());
        assertEquals(T0.getEpochSecond(), bucketOf(ticks.get(0)), "12:00:00.7 is in the bucket of 12:00:00");
        assertEquals("timer:acme/clock:" + T0.getEpochSecond(), ticks.get(0).dedupeKey());
        assertEquals(Instant.parse("2026-11-29T12:00:02Z"), next);

        now.set(next.plusMillis(20)); // the scheduler fires just after the boundary
        Instant after = ticker.fire(next);
        assertEquals(next.getEpochSecond(), bucketOf(ticks.get(1)));
        assertEquals(Instant.parse("2026-11-29T12:00:04Z"), after);
    }

    @Test
    void aStartAfterEveryInstanceWasDownTicksOnceForTheCurrentBucketNotForTheMissedOnes() {
        ticker().fire(now.get());
        // Everybody down for three buckets and more; a new instance (a new ticker) starts.
        now.set(T0.plusSeconds(7));
        Instant next = ticker().fire(now.get());
        assertEquals(2, ticks.size(), "one tick at the start, none for 12:00:02, :04 or :06's predecessors: " + ticks);
        assertEquals(Instant.parse("2026-11-29T12:00:06Z").getEpochSecond(), bucketOf(ticks.get(1)));
        assertEquals(Instant.parse("2026-11-29T12:00:08Z"), next);
    }

    @Test
    void aLateFiringTicksOnceForTheCurrentBucketAndAnEarlyOneForItsOwn() {
        TimerTicker ticker = ticker();
        Instant due = ticker.fire(now.get()); // 12:00:02
        now.set(due.plusSeconds(5)); // the executor fell behind by two buckets and more
        assertEquals(Instant.parse("2026-11-29T12:00:08Z"), ticker.fire(due));
        assertEquals(Instant.parse("2026-11-29T12:00:06Z").getEpochSecond(), bucketOf(ticks.get(1)), "the current bucket");
        assertEquals(2, ticks.size(), "no catch-up");

        Instant early = Instant.parse("2026-11-29T12:00:08Z");
        now.set(early.minusMillis(3)); // woken 3 ms early
        assertEquals(Instant.parse("2026-11-29T12:00:10Z"), ticker.fire(early));
        assertEquals(early.getEpochSecond(), bucketOf(ticks.get(2)), "the bucket it was due for, not the one ending");
    }

    @Test
    void aTickThePipelineRefusesLeavesTheNextOneDue() {
        TimerTicker failing = new TimerTicker(new TickSchedule(TWO_SECONDS, List.of("acme/clock")), "acme/clock", clock,
                () -> "evt_1", tick -> {
                    throw new IllegalStateException("database unavailable");
                });
        assertEquals(Instant.parse("2026-11-29T12:00:02Z"), failing.fire(now.get()));
    }
}
