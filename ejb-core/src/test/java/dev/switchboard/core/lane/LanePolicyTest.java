package dev.switchboard.core.lane;

import static dev.switchboard.core.lane.LanePolicy.Decision.ABANDON;
import static dev.switchboard.core.lane.LanePolicy.Decision.BUSY;
import static dev.switchboard.core.lane.LanePolicy.Decision.CLAIM;
import static dev.switchboard.core.lane.LanePolicy.Decision.IDLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.switchboard.persistence.run.RunState;
import org.junit.jupiter.api.Test;

class LanePolicyTest {

    private final LanePolicy policy = new LanePolicy(3);
    private static final long NOW = 10_000;

    @Test
    void aLiveLeaseKeepsEveryoneElseOut() {
        assertEquals(BUSY, policy.decide("other", NOW + 1, RunState.QUEUED, 0, NOW));
        assertEquals(BUSY, policy.decide("other", NOW, RunState.EXECUTING, 1, NOW), "valid up to its expiry");
    }

    @Test
    void aFreeLaneWithAQueuedHeadIsClaimed() {
        assertEquals(CLAIM, policy.decide(null, null, RunState.QUEUED, 0, NOW));
    }

    @Test
    void anEmptyLaneIsIdleEvenWithAStaleLease() {
        assertEquals(IDLE, policy.decide(null, null, null, 0, NOW));
        assertEquals(IDLE, policy.decide("dead", NOW - 1, null, 0, NOW));
    }

    @Test
    void anExpiredLeaseOverAnExecutingRunIsRecovered() {
        assertEquals(CLAIM, policy.decide("dead", NOW - 1, RunState.EXECUTING, 1, NOW));
        assertEquals(CLAIM, policy.decide("dead", NOW - 1, RunState.EXECUTING, 2, NOW));
    }

    @Test
    void aCrashOnTheLastAllowedAttemptAbandonsTheRun() {
        assertEquals(ABANDON, policy.decide("dead", NOW - 1, RunState.EXECUTING, 3, NOW));
        assertEquals(ABANDON, policy.decide(null, null, RunState.EXECUTING, 4, NOW));
    }

    @Test
    void aRunHandedBackGracefullyIsAlwaysClaimable() {
        assertEquals(CLAIM, policy.decide(null, null, RunState.QUEUED, 3, NOW));
    }

    @Test
    void theAbandonReasonSaysWhatHappened() {
        assertEquals("run abandoned after 3 attempts: the instance executing it stopped renewing its lease",
                policy.abandonReason(3));
        assertEquals("run abandoned after 1 attempt: the instance executing it stopped renewing its lease",
                new LanePolicy(1).abandonReason(1));
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new LanePolicy(0));
        assertThrows(IllegalArgumentException.class, () -> policy.decide(null, null, RunState.SUCCEEDED, 1, NOW));
    }
}
