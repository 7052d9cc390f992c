package dev.switchboard.core.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.switchboard.core.metrics.IntervalFigures;
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
}
