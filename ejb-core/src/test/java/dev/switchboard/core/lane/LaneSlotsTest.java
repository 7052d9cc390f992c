package dev.switchboard.core.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LaneSlotsTest {

    @Test
    void aWakeTakesASlotAndMakesTheLaneDriven() {
        LaneSlots slots = new LaneSlots(2);
        List<LaneSlots.Dispatch> d = slots.wake(7);
        assertEquals(1, d.size());
        assertEquals(7, d.get(0).threadId());
        assertTrue(slots.isDriven(7));
        assertEquals(1, slots.free());
        assertEquals(List.of(), slots.wake(7), "a driven lane is not dispatched twice");
        assertEquals(1, slots.free());
    }

    @Test
    void aWakeWhileDrivenIsKeptAndDispatchedWhenTheDriverLetsGo() {
        LaneSlots slots = new LaneSlots(1);
        LaneSlots.Dispatch first = slots.wake(7).get(0);
        slots.wake(7); // new work arrived while it is driven
        List<LaneSlots.Dispatch> again = slots.end(7, first.driver());
        assertEquals(1, again.size(), "the mark becomes a new wake-up");
        assertEquals(7, again.get(0).threadId());
    }

    @Test
    void lanesBeyondCapacityWaitInWakeUpOrder() {
        LaneSlots slots = new LaneSlots(1);
        LaneSlots.Dispatch a = slots.wake(1).get(0);
        assertEquals(List.of(), slots.wake(2));
        assertEquals(List.of(), slots.wake(3));
        assertEquals(0, slots.free());
        List<LaneSlots.Dispatch> next = slots.end(1, a.driver());
        assertEquals(List.of(2L), next.stream().map(LaneSlots.Dispatch::threadId).toList());
        next = slots.end(2, next.get(0).driver());
        assertEquals(List.of(3L), next.stream().map(LaneSlots.Dispatch::threadId).toList());
    }

    @Test
    void aSupersededDriversEndFreesItsSlotButNotTheLane() {
        LaneSlots slots = new LaneSlots(4);
        assertEquals(1, slots.wake(7).size());
        Object attempt1 = new Object();
        slots.drive(7, attempt1); // the claim started attempt 1 on the dispatched slot
        assertTrue(slots.reserve()); // an ingest on this instance reclaims the run as attempt 2
        Object attempt2 = new Object();
        slots.drive(7, attempt2);
        assertEquals(2, slots.inUse());

        slots.end(7, attempt1); // attempt 1 ends (stopped): its slot only
        assertEquals(1, slots.inUse());
        assertTrue(slots.isDriven(7), "attempt 2 still drives the lane");
        slots.end(7, attempt2);
        assertFalse(slots.isDriven(7));
        assertEquals(4, slots.free());
    }

    @Test
    void aReservationThatClaimedNothingGoesBackAndDispatchesWaiters() {
        LaneSlots slots = new LaneSlots(1);
        assertTrue(slots.reserve());
        assertFalse(slots.reserve(), "at capacity");
        assertEquals(List.of(), slots.wake(5));
        List<LaneSlots.Dispatch> d = slots.unreserve();
        assertEquals(List.of(5L), d.stream().map(LaneSlots.Dispatch::threadId).toList());
    }

    @Test
    void stoppingRefusesSlotsAndDropsWaiters() {
        LaneSlots slots = new LaneSlots(1);
        LaneSlots.Dispatch a = slots.wake(1).get(0);
        slots.wake(2);
        slots.stopAccepting();
        assertFalse(slots.reserve());
        assertEquals(0, slots.free());
        assertEquals(List.of(), slots.end(1, a.driver()));
        assertEquals(List.of(), slots.wake(3));
    }
}
