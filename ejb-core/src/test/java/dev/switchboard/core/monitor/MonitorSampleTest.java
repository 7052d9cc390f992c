package dev.switchboard.core.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.switchboard.core.metrics.IntervalFigures;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class MonitorSampleTest {

    private static final IntervalFigures.Taken FIGURES = new IntervalFigures.Taken(7, 1, 40L, 250L, 9, 2, 1, 3);

    @Test
    void aSampleHoldsTheIntervalsFiguresAndTheGaugesReadThen() {
        MonitorSample s = MonitorSample.of("a-1234", "a", 1_000, 10_000, FIGURES, 12, 3, 5);
        assertEquals(new MonitorSample("a-1234", "a", 1_000, 10_000, 7, 1, 40L, 250L, 9, 12L, 3, 5, 2, 1, 3), s);
    }

    @Test
    void aQueueThatCouldNotBeReadIsUnknownRatherThanEmpty() {
        MonitorSample s = MonitorSample.of("a-1234", "a", 1_000, 10_000, FIGURES, Double.NaN, Double.NaN, Double.NaN);
        assertNull(s.runsQueued(), "the queue is unknown while the database does not answer, not empty");
        assertEquals(0, s.runsExecuting());
        assertEquals(0, s.subscribers());
    }

    private static List<MonitorSample> at(long... times) {
        return LongStream.of(times).mapToObj(t -> new MonitorSample("o" + t, "i", t, 10_000, 0, 0, null, null, 0, 0L, 0, 0, 0, 0, 0))
                .toList();
    }

    private static List<Long> times(List<MonitorSample> samples) {
        return samples.stream().map(MonitorSample::sampledAt).toList();
    }

    @Test
    void aPageEndsBeforeTheMomentItWouldSplitSoThatGoingOnAfterItsLastTimeMissesNothing() {
        assertEquals(List.of(1L, 2L, 3L), times(MonitorSample.firstPage(at(1, 2, 3), 3)), "all there is");
        assertEquals(List.of(1L, 2L, 3L), times(MonitorSample.firstPage(at(1, 2, 3, 4), 3)));
        // Two instances sampled at 3: the page stops at 2, and "after 2" reads both of them.
        assertEquals(List.of(1L, 2L), times(MonitorSample.firstPage(at(1, 2, 3, 3), 3)));
        assertEquals(List.of(1L), times(MonitorSample.firstPage(at(1, 3, 3, 3), 3)));
        // A moment of more samples than a page cannot be kept whole: the page is full.
        assertEquals(List.of(3L, 3L, 3L), times(MonitorSample.firstPage(at(3, 3, 3, 3), 3)));
    }
}
