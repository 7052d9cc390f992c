package dev.switchboard.core.lane;

import static dev.switchboard.core.lane.LanePolicy.Decision.ABANDON;
import static dev.switchboard.core.lane.LanePolicy.Decision.ADOPT;
import static dev.switchboard.core.lane.LanePolicy.Decision.BUSY;
import static dev.switchboard.core.lane.LanePolicy.Decision.CLAIM;
import static dev.switchboard.core.lane.LanePolicy.Decision.IDLE;
import static dev.switchboard.core.lane.LanePolicy.Decision.RECOVER;
import static dev.switchboard.core.lane.LanePolicy.Lease.EXPIRED;
import static dev.switchboard.core.lane.LanePolicy.Lease.MINE;
import static dev.switchboard.core.lane.LanePolicy.Lease.NONE;
import static dev.switchboard.core.lane.LanePolicy.Lease.OTHERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.switchboard.persistence.run.RunState;
import org.junit.jupiter.api.Test;

class LanePolicyTest {

    private final LanePolicy policy = new LanePolicy(3);
    private static final long DB_NOW = 10_000;

    @Test
    void aLeaseIsJudgedByTheDatabasesClockAndItsOwner() {
        assertEquals(NONE, LanePolicy.Lease.of(null, null, "me", DB_NOW));
        assertEquals(OTHERS, LanePolicy.Lease.of("other", DB_NOW + 1, "me", DB_NOW));
        assertEquals(OTHERS, LanePolicy.Lease.of("other", DB_NOW, "me", DB_NOW), "valid up to its expiry");
        assertEquals(EXPIRED, LanePolicy.Lease.of("other", DB_NOW - 1, "me", DB_NOW));
        assertEquals(MINE, LanePolicy.Lease.of("me", DB_NOW + 1, "me", DB_NOW));
        assertEquals(EXPIRED, LanePolicy.Lease.of("me", DB_NOW - 1, "me", DB_NOW), "an expired lease is nobody's");
    }

    @Test
    void aLiveLeaseKeepsEveryoneElseOut() {
        assertEquals(BUSY, policy.decide(OTHERS, true, RunState.EXECUTING, 0));
        assertEquals(BUSY, policy.decide(OTHERS, false, RunState.QUEUED, 0));
        assertEquals(BUSY, policy.decide(OTHERS, false, null, 0));
    }

    @Test
    void anOwnLiveLeaseOverTheExecutingHeadIsAdoptedUnchanged() {
        assertEquals(ADOPT, policy.decide(MINE, true, RunState.EXECUTING, 0));
        assertEquals(ADOPT, policy.decide(MINE, true, RunState.EXECUTING, 2), "adopting is not a crash");
    }

    @Test
    void aFreeLaneWithAQueuedHeadIsClaimed() {
        assertEquals(CLAIM, policy.decide(NONE, false, RunState.QUEUED, 0));
        assertEquals(CLAIM, policy.decide(EXPIRED, false, RunState.QUEUED, 0));
    }

    @Test
    void anEmptyLaneIsIdleEvenWithAStaleLease() {
        assertEquals(IDLE, policy.decide(NONE, false, null, 0));
        assertEquals(IDLE, policy.decide(EXPIRED, false, null, 0));
        assertEquals(IDLE, policy.decide(MINE, false, null, 0));
    }

    @Test
    void anExpiredLeaseOverAnExecutingRunIsACrashAndIsRecovered() {
        assertEquals(RECOVER, policy.decide(EXPIRED, true, RunState.EXECUTING, 0));
        assertEquals(RECOVER, policy.decide(EXPIRED, true, RunState.EXECUTING, 1));
        assertEquals(RECOVER, policy.decide(NONE, false, RunState.EXECUTING, 0), "executing without any lease");
        assertEquals(RECOVER, policy.decide(MINE, false, RunState.EXECUTING, 0), "a lease of mine on another attempt");
    }

    @Test
    void theCrashThatReachesTheLimitAbandonsTheRun() {
        assertEquals(ABANDON, policy.decide(EXPIRED, true, RunState.EXECUTING, 2), "third crash of three");
        assertEquals(ABANDON, policy.decide(NONE, false, RunState.EXECUTING, 5));
        assertEquals(ABANDON, new LanePolicy(1).decide(EXPIRED, true, RunState.EXECUTING, 0));
    }

    @Test
    void handBacksDoNotCountOnlyCrashesDo() {
        // However many attempts a run has had, a queued head (handed back) is claimable, and an
        // executing one is judged by its crashes alone: attempts are not part of the rule at all.
        assertEquals(CLAIM, policy.decide(NONE, false, RunState.QUEUED, 2));
        assertEquals(RECOVER, policy.decide(EXPIRED, true, RunState.EXECUTING, 1));
    }

    @Test
    void theAbandonReasonSaysWhatHappened() {
        assertEquals("run abandoned after 3 crashed attempts: the instance executing it stopped renewing its lease",
                policy.abandonReason(3));
        assertEquals("run abandoned after 1 crashed attempt: the instance executing it stopped renewing its lease",
                new LanePolicy(1).abandonReason(1));
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new LanePolicy(0));
        assertThrows(IllegalArgumentException.class, () -> policy.decide(NONE, false, RunState.SUCCEEDED, 1));
    }
}
