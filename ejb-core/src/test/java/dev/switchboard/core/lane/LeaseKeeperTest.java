package dev.switchboard.core.lane;

import static dev.switchboard.core.lane.LaneFixture.claim;
import static dev.switchboard.core.lane.LaneFixture.claimed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LeaseKeeperTest {

    private final LaneFixture lane = new LaneFixture(4);

    @AfterEach
    void close() {
        lane.close();
    }

    @Test
    void theHeartbeatExtendsHeldLeasesStopsLostOnesAndAdoptsOrphans() {
        Claim held = claim("held", 1, 1);
        Claim lost = claim("lost", 2, 1);
        Claim orphan = claim("orphan", 9, 1);
        lane.admit(held);
        lane.admit(lost);
        lane.store.onRenew = keys -> new LaneStore.Renewal(Set.of(held.key()), Set.of(9L));
        lane.store.onClaim = thread -> thread == 9 ? claimed(orphan) : ClaimResult.none();

        lane.advanceMs(1_000);
        long anchor = lane.nanos.get();
        lane.keeper.heartbeat();

        assertEquals(anchor + (LaneFixture.LEASE_MS - LaneFixture.MARGIN_MS) * 1_000_000,
                lane.execution(held.key()).deadlineNanos(), "counted from before the renewal");
        assertTrue(lane.work.jobs.get(lost.key()).stopped(), "a lease the database says is gone stops its engine");
        assertEquals(List.of(), lane.store.finishesOf(lost.key()));
        assertTrue(lane.work.started.contains(orphan.key()), "a lease held for nothing here is adopted");
    }

    @Test
    void whenRenewalsFailExecutionsStopAtTheirDeadlineBeforeTheLeaseCanExpire() {
        Claim run = claim("r", 1, 1);
        lane.admit(run);
        lane.store.onRenew = keys -> {
            throw new IllegalStateException("database unreachable");
        };
        lane.advanceMs(500);
        lane.keeper.heartbeat();
        assertNull(lane.execution(run.key()).stopReason(), "a failed renewal alone stops nothing");

        lane.advanceMs(LaneFixture.LEASE_MS - LaneFixture.MARGIN_MS - 500 - 1);
        lane.keeper.enforceDeadlines();
        assertNull(lane.execution(run.key()).stopReason());
        lane.advanceMs(1);
        lane.keeper.enforceDeadlines();
        assertTrue(lane.work.jobs.get(run.key()).stopped(), "stopped by the watchdog at lease minus margin");
        assertEquals(List.of(), lane.runner.executions());
    }

    @Test
    void anExecutionWhoseResultIsBeingRecordedIsNotStopped() {
        // Its finish may already have moved the lease on (to the next run): that is no lost lease.
        Claim run = claim("r", 1, 1);
        lane.store.onFinish = f -> {
            throw new IllegalStateException("database unreachable"); // the write is retried later
        };
        lane.admit(run);
        lane.work.complete(run.key(), "done");
        lane.store.onRenew = keys -> new LaneStore.Renewal(Set.of(), Set.of());
        lane.keeper.heartbeat();
        lane.advanceMs(LaneFixture.LEASE_MS * 2);
        lane.keeper.enforceDeadlines();
        assertNull(lane.execution(run.key()).stopReason(), "still being recorded, not stopped");
    }

    @Test
    void aHeartbeatThatHasNotCompletedWithinALeaseIsNotCurrent() {
        assertTrue(lane.keeper.heartbeatCurrent(), "start-up counts as a beat");
        lane.advanceMs(LaneFixture.LEASE_MS);
        assertFalse(lane.keeper.heartbeatCurrent());
        lane.keeper.heartbeat();
        assertTrue(lane.keeper.heartbeatCurrent());
    }

    @Test
    void thePollWakesAtMostAsManyLanesAsThereAreFreeSlots() {
        LaneFixture small = new LaneFixture(2);
        try {
            small.store.claimable = List.of(11L, 12L, 13L);
            small.keeper.poll();
            assertEquals(List.of(11L, 12L), small.store.claims);
        } finally {
            small.close();
        }
    }
}
