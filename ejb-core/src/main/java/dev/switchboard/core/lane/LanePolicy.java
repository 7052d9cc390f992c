package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunState;

/**
 * The claim rule of a lane, decided from the thread's lease and the lane head (its oldest
 * unfinished run). Pure: no clock, no database, so every case is unit-tested.
 */
public final class LanePolicy {

    /** What to do with a lane when someone tries to claim it. */
    public enum Decision {
        /** Another owner holds a live lease: leave the lane alone; its owner chains the next run. */
        BUSY,
        /** Nothing to run: release any stale lease. */
        IDLE,
        /** Claim the head run (a queued run, or one whose owner's lease expired). */
        CLAIM,
        /** The head's owner died on its last allowed attempt: fail it and look at the next run. */
        ABANDON
    }

    private final int maxAttempts;

    public LanePolicy(int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, was " + maxAttempts);
        }
        this.maxAttempts = maxAttempts;
    }

    /**
     * @param leaseOwner owner of the thread's lease, or null
     * @param leaseUntil expiry of the lease in epoch ms, or null
     * @param head state of the lane head, or null when the lane is empty
     * @param headAttempts attempts the head has already started
     */
    public Decision decide(String leaseOwner, Long leaseUntil, RunState head, int headAttempts, long now) {
        if (leaseOwner != null && leaseUntil != null && leaseUntil >= now) {
            return Decision.BUSY;
        }
        if (head == null) {
            return Decision.IDLE;
        }
        if (head.isTerminal()) {
            throw new IllegalArgumentException("a lane head is never terminal");
        }
        // Only a crashed attempt (still executing, lease gone) counts against the limit; a run
        // handed back on a graceful shutdown is queued again and always claimable.
        if (head == RunState.EXECUTING && headAttempts >= maxAttempts) {
            return Decision.ABANDON;
        }
        return Decision.CLAIM;
    }

    /** The recorded reason of a run abandoned by {@link Decision#ABANDON}. */
    public String abandonReason(int attempts) {
        return "run abandoned after " + attempts + " attempt" + (attempts == 1 ? "" : "s")
                + ": the instance executing it stopped renewing its lease";
    }
}
