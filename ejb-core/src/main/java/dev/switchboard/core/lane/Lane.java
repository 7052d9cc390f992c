package dev.switchboard.core.lane;

/**
 * A thread's lane as its lock read it: the lease (owner, expiry by the database's clock, the run
 * and attempt it is held for), the sequence number its next run takes, the database's time read
 * with the lock (epoch ms), and what the thread's row holds for its runs ({@code payload}, the
 * features'). Only the lane changes a lease ({@link Lanes}); what others may change is the payload
 * they wrote.
 */
public record Lane(long threadId, String leaseOwner, Long leaseUntil, String leaseRunId, Integer leaseAttempt,
        long nextSeq, long dbNow, LanePayload payload) {

    /** True when {@code owner} holds the lease for exactly this attempt of this run (live or not). */
    public boolean isLeasedTo(String owner, String runId, int attempt) {
        return owner.equals(leaseOwner) && runId.equals(leaseRunId) && leaseAttempt != null
                && leaseAttempt == attempt;
    }

    /** True when the lane waits, parked, for {@code runId}'s replies ({@link Lanes#resume}). */
    public boolean isParkedFor(String runId) {
        return LaneRows.PARKED.equals(leaseOwner) && runId.equals(leaseRunId);
    }

    /** The lane with its payload as this transaction changed it (the feature that changed it wrote it). */
    public Lane withPayload(LanePayload changed) {
        return new Lane(threadId, leaseOwner, leaseUntil, leaseRunId, leaseAttempt, nextSeq, dbNow, changed);
    }

    Lane leased(String owner, long until, String runId, int attempt) {
        return new Lane(threadId, owner, until, runId, attempt, nextSeq, dbNow, payload);
    }

    Lane released() {
        return new Lane(threadId, null, null, null, null, nextSeq, dbNow, payload);
    }

    /** The lane after a run took sequence number {@code nextSeq}. */
    Lane advanced() {
        return new Lane(threadId, leaseOwner, leaseUntil, leaseRunId, leaseAttempt, nextSeq + 1, dbNow, payload);
    }
}
