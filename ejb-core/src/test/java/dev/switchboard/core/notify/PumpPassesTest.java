package dev.switchboard.core.notify;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PumpPassesTest {

    private static final long MS = 1_000_000;

    @Test
    void pollTicksAndRequestsAreFullPasses() {
        PumpPasses passes = new PumpPasses(100, 0);
        assertTrue(passes.full(false, false, 10 * MS), "a poll tick");
        assertTrue(passes.full(true, true, 20 * MS), "a subscriber's request");
        assertFalse(passes.full(true, false, 30 * MS), "a local commit soon after: stamp and deliver only");
    }

    @Test
    void localCommitsWakingThePumpNonStopStillGetAFullPassEveryPollInterval() {
        PumpPasses passes = new PumpPasses(100, 0);
        int full = 0;
        for (long t = 1; t <= 1_000; t++) { // a local commit every millisecond for one second
            if (passes.full(true, false, t * MS)) {
                full++;
            }
        }
        assertTrue(full >= 9 && full <= 10, "full passes in one second of constant wakes: " + full);
    }
}
