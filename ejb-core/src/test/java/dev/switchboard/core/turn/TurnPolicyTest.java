package dev.switchboard.core.turn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.lifecycle.TurnIds;
import org.junit.jupiter.api.Test;

class TurnPolicyTest {

    @Test
    void unknownValuesFallBackToFollowup() {
        assertEquals(TurnPolicy.FOLLOWUP, TurnPolicy.parse(null));
        assertEquals(TurnPolicy.FOLLOWUP, TurnPolicy.parse("bogus"));
        assertEquals(TurnPolicy.COLLECT, TurnPolicy.parse(" Collect "));
        assertEquals(TurnPolicy.INTERRUPT, TurnPolicy.parse("interrupt"));
    }

    @Test
    void theThreePoliciesDiffer() {
        assertFalse(TurnPolicy.FOLLOWUP.supersedesWaitingTurns());
        assertTrue(TurnPolicy.COLLECT.supersedesWaitingTurns() && TurnPolicy.COLLECT.carriesInputForward());
        assertFalse(TurnPolicy.COLLECT.interruptsRunningTurn());
        assertTrue(TurnPolicy.INTERRUPT.interruptsRunningTurn() && !TurnPolicy.INTERRUPT.carriesInputForward());
    }

    @Test
    void effectsOnTheThreadsActiveTurns() {
        assertEquals(TurnPolicy.Effect.KEEP, TurnPolicy.FOLLOWUP.effectOn(false));
        assertEquals(TurnPolicy.Effect.KEEP, TurnPolicy.FOLLOWUP.effectOn(true));
        assertEquals(TurnPolicy.Effect.SUPERSEDE, TurnPolicy.COLLECT.effectOn(false));
        assertEquals(TurnPolicy.Effect.KEEP, TurnPolicy.COLLECT.effectOn(true));
        assertEquals(TurnPolicy.Effect.SUPERSEDE, TurnPolicy.INTERRUPT.effectOn(false));
        assertEquals(TurnPolicy.Effect.INTERRUPT, TurnPolicy.INTERRUPT.effectOn(true));
    }

    @Test
    void holonsTexts() {
        assertEquals("superseded by newer turn (collect policy)", TurnPolicy.COLLECT.supersededReason());
        assertEquals("superseded by newer turn (interrupt policy)", TurnPolicy.INTERRUPT.supersededReason());
        assertEquals("session main queue is full (8 queued turns)", TurnPolicy.queueFullMessage("main", 8));
    }

    @Test
    void idsAreHolonShapedAndStrictlyIncreasing() {
        long previous = 0;
        for (int i = 0; i < 1000; i++) {
            String id = TurnIds.turnId();
            assertTrue(id.matches("turn_\\d{19}"), id);
            long n = Long.parseLong(id.substring(5));
            assertTrue(n > previous);
            previous = n;
        }
    }
}
