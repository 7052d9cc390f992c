package dev.switchboard.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IntervalFiguresTest {

    @Test
    void anIntervalCountsWhatEndedInItAndStartsAfresh() {
        IntervalFigures figures = new IntervalFigures();
        figures.runEnded(true, Duration.ofMillis(12));
        figures.runEnded(true, Duration.ofMillis(40));
        figures.runEnded(false, Duration.ofMillis(900));
        figures.messagesAccepted(5);
        figures.webhookAttempt(true);
        figures.webhookAttempt(false);
        figures.webhookAttempt(false);
        figures.ingressEvent();

        IntervalFigures.Taken taken = figures.take();
        assertEquals(2, taken.runsSucceeded());
        assertEquals(1, taken.runsFailed());
        assertEquals(5, taken.messagesAccepted());
        assertEquals(1, taken.webhooksDelivered());
        assertEquals(2, taken.webhooksNotDelivered());
        assertEquals(1, taken.ingressEvents());
        assertEquals(40, taken.latencyP50Ms()); // the 2nd of 3: 40 ms is a bucket bound
        assertEquals(1000, taken.latencyP99Ms()); // 900 ms lies in the bucket up to 1,000 ms

        IntervalFigures.Taken next = figures.take();
        assertEquals(new IntervalFigures.Taken(0, 0, null, null, 0, 0, 0, 0), next);
    }

    @Test
    void aQuantileIsTheBoundOfItsBucketAtMostAQuarterHigh() {
        for (long ms : new long[] {0, 1, 2, 7, 13, 99, 101, 333, 4_999, 12_345, 999_999}) {
            long bound = IntervalFigures.BOUNDS_MS[IntervalFigures.bucketOf(ms)];
            assertTrue(bound >= ms, ms + " ms counted below itself, in the bucket up to " + bound);
            assertTrue(bound <= Math.max(1, ms * 1.25), ms + " ms counted too high, in the bucket up to " + bound);
        }
        assertEquals(IntervalFigures.BOUNDS_MS.length - 1, IntervalFigures.bucketOf(5_000_000), "beyond the last bound: the last");
    }

    @Test
    void p99OfAHundredRunsIsTheSlowOne() {
        IntervalFigures figures = new IntervalFigures();
        for (int i = 0; i < 98; i++) {
            figures.runEnded(true, Duration.ofMillis(10));
        }
        figures.runEnded(true, Duration.ofMillis(3_000));
        figures.runEnded(true, Duration.ofMillis(3_000));
        IntervalFigures.Taken taken = figures.take();
        assertEquals(10, taken.latencyP50Ms());
        assertEquals(3_000, taken.latencyP99Ms());
        assertNull(new IntervalFigures().take().latencyP50Ms(), "no run, no latency");
    }

    @Test
    void noRunIsLostOrCountedTwiceWhileIntervalsAreTaken() throws Exception {
        IntervalFigures figures = new IntervalFigures();
        int threads = 4;
        int each = 50_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                for (int i = 0; i < each; i++) {
                    figures.runEnded(true, Duration.ofMillis(5));
                }
                done.countDown();
            });
        }
        long counted = 0;
        long latencies = 0;
        while (done.getCount() > 0) {
            IntervalFigures.Taken taken = figures.take();
            counted += taken.runsSucceeded();
            latencies += taken.latencyP50Ms() == null ? 0 : 1;
        }
        counted += figures.take().runsSucceeded();
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals((long) threads * each, counted);
        assertTrue(latencies > 0, "some intervals saw latencies");
    }
}
