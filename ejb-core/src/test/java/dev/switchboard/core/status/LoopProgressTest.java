package dev.switchboard.core.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoopProgressTest {

    private static Map<String, Long> ages(long lanes, long sequencer, long timers) {
        Map<String, Long> ages = new LinkedHashMap<>();
        ages.put("lanes", lanes);
        ages.put("sequencer", sequencer);
        ages.put("timers", timers);
        return ages;
    }

    @Test
    void loopsThatWentRoundWithinTheLimitAreProgressing() {
        LoopProgress p = LoopProgress.of(ages(900, 59_999, 50), 60_000);
        assertTrue(p.going());
        assertEquals(Map.of("lanes", "progressing", "sequencer", "progressing", "timers", "progressing"), p.loops());
    }

    @Test
    void oneLoopPastTheLimitIsStuckAndTheInstanceIsNotLiveTheOthersStillSayProgressing() {
        LoopProgress p = LoopProgress.of(ages(60_000, 100, 50), 60_000);
        assertFalse(p.going());
        assertEquals("stuck for 60000 ms", p.loops().get("lanes"));
        assertEquals("progressing", p.loops().get("sequencer"));
        assertEquals(List.of("lanes", "sequencer", "timers"), List.copyOf(p.loops().keySet()), "reported in the order given");
    }
}
