package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunState;

/**
 * The claim rule of a lane, decided from the thread's lease and the lane head (its oldest
 * unfinished run). Pure: the caller states whose lease it is and whether it is live by the
 * database's clock ({@link Lease#of}); every case is unit-tested.
 */
public final class LanePolicy {

    /** The thread's lease as the claimant sees it. */
    public enum Lease {
        /** No lease. */
        NONE,
        /** A lease whose expiry has passed by the database's clock: its owner crashed, hung or is late. */
        EXPIRED,
        /** A live lease held by the claimant itself. */
        MINE,
        /** A live lease held by another owner. */
        OTHERS;

        /**
         * @param until expiry in epoch ms by the database's clock, or null
         * @param dbNow the database's clock in epoch ms, read in the claimant's transaction
         */
        public static Lease of(String owner, Long until, String claimant, long dbNow) {
            if (owner == null || until == null) {
                return NONE;
            }
            if (until < dbNow) {
                return EXPIRED;
            }
            return owner.equals(claimant) ? MINE : OTHERS;
        }
    }

    /** What to do with a lane when someone tries to claim it. */
    public enum Decision {
        /** Another owner holds a live lease: leave the lane alone; its owner chains the next run. */
        BUSY,
        /**
         * The claimant's own live lease covers the executing head: it is (or should be) executing
         * it; return that attempt unchanged, so an instance that lost track of a claim it made —
         * a commit whose outcome it never learned — picks it up again.
         */
        ADOPT,
        /** Nothing to run: release any stale lease. */
        IDLE,
        /** Claim the queued head run. */
        CLAIM,
        /** The head's owner lost its lease while executing it (a crash): count the crash and claim it again. */
        RECOVER,
        /** The head has crashed as often as allowed: fail it and look at the next run. */
        ABANDON
    }

    private final int maxCrashes;

    /** {@code maxCrashes}: how many crashed attempts a run may have; the last one fails it. */
    public LanePolicy(int maxCrashes) {
        if (maxCrashes < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, was " + maxCrashes);
        }
        this.maxCrashes = maxCrashes;
    }

    /**
     * @param lease the thread's lease
     * @param leaseOnHead the lease names the head run and its current attempt
     * @param head state of the lane head, or null when the lane is empty
     * @param headCrashes crashed attempts the head has had so far
     */
    public Decision decide(Lease lease, boolean leaseOnHead, RunState head, int headCrashes) {
        if (lease == Lease.OTHERS) {
            return Decision.BUSY;
        }
        if (head == null) {
            return Decision.IDLE;
        }
        if (head.isTerminal()) {
            throw new IllegalArgumentException("a lane head is never terminal");
        }
        if (head == RunState.QUEUED) {
            return Decision.CLAIM;
        }
        if (lease == Lease.MINE && leaseOnHead) {
            return Decision.ADOPT;
        }
        // Executing without a live lease on it: the attempt's owner stopped renewing. Only such
        // crashes count against the limit; a run handed back gracefully is queued, not crashed.
        return headCrashes + 1 >= maxCrashes ? Decision.ABANDON : Decision.RECOVER;
    }

    /** The recorded reason of a run abandoned by {@link Decision#ABANDON}. */
    public String abandonReason(int crashes) {
        return "run abandoned after " + crashes + " crashed attempt" + (crashes == 1 ? "" : "s")
                + ": the instance executing it stopped renewing its lease";
    }
}
