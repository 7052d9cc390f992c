package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.ingress.IngressDecision.Facts;
import dev.switchboard.core.ingress.IngressDecision.Kind;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The ingress decision rule (§9.4, H9, H10) and the requeue rule. */
class IngressDecisionTest {

    private static final BooleanSupplier NO_TICK_HELD = () -> false;

    private static IngressDecision decide(boolean seen, boolean held, boolean paused, boolean timer,
            BooleanSupplier tickHeld, boolean laneHasHeld) {
        return IngressDecision.decide(new Facts(seen, held, paused, timer, tickHeld, laneHasHeld));
    }

    @Test
    void aFreshEventOnARunningRuntimeIsForwarded() {
        assertEquals(new IngressDecision(Kind.FORWARD, null), decide(false, false, false, false, NO_TICK_HELD, false));
    }

    @Test
    void aKnownOrHeldKeyIsADuplicateEvenWhilePaused() {
        assertEquals(new IngressDecision(Kind.DUPLICATE, "duplicate dedupe_key"),
                decide(true, false, true, false, NO_TICK_HELD, true));
        assertEquals(Kind.DUPLICATE, decide(false, true, false, false, NO_TICK_HELD, true).kind());
    }

    @Test
    void pauseHoldsEventsAndCoalescesTimerTicksPerRepository() {
        assertEquals(new IngressDecision(Kind.HOLD, "runtime paused"), decide(false, false, true, false, () -> true, false));
        assertEquals(new IngressDecision(Kind.HOLD, "runtime paused"), decide(false, false, true, true, NO_TICK_HELD, false));
        assertEquals(new IngressDecision(Kind.DUPLICATE, "timer tick already held while paused"),
                decide(false, false, true, true, () -> true, false));
    }

    @Test
    void anEventBehindHeldEventsOfItsLaneWaitsForThem() {
        assertEquals(new IngressDecision(Kind.HOLD, "earlier events of this session are still held"),
                decide(false, false, false, false, NO_TICK_HELD, true));
    }

    @Test
    void theHeldTickQueryIsAskedOnlyForATimerWhilePaused() {
        AtomicInteger asked = new AtomicInteger();
        BooleanSupplier counting = () -> asked.incrementAndGet() > 0;
        decide(false, false, false, true, counting, false);
        decide(false, false, true, false, counting, false);
        decide(true, false, true, true, counting, false);
        assertEquals(0, asked.get());
        decide(false, false, true, true, counting, false);
        assertEquals(1, asked.get());
    }

    @Test
    void onlyAnAcceptedEventWhoseRunFailedCanBeRequeued() {
        assertFalse(IngressDecision.requeueRefusal("evt_1", "accepted", "failed").isPresent());
        assertTrue(IngressDecision.requeueRefusal("evt_1", "accepted", "succeeded").orElseThrow().contains("succeeded"));
        assertTrue(IngressDecision.requeueRefusal("evt_1", "accepted", "executing").isPresent());
        assertTrue(IngressDecision.requeueRefusal("evt_1", "duplicate", null).orElseThrow().contains("duplicate"));
        assertTrue(IngressDecision.requeueRefusal("evt_1", "deferred", null).isPresent());
    }
}
