package dev.switchboard.core.lane;

import dev.switchboard.core.thread.ThreadRuntime;

/**
 * A thread's lane as its lock read it: the lease (owner, expiry by the database's clock, the run
 * and attempt it is held for), the sequence number its next run takes, the database's time read
 * with the lock (epoch ms), and the thread's runtime choice (what its runs execute with). Only the
 * lane changes a lease ({@link Lanes}); what others may change is the runtime they wrote.
 */
public record Lane(long threadId, String leaseOwner, Long leaseUntil, String leaseRunId, Integer leaseAttempt,
        long nextSeq, long dbNow, ThreadRuntime runtime) {

    /** True when {@code owner} holds the lease for exactly this attempt of this run (live or not). */
    public boolean isLeasedTo(String owner, String runId, int attempt) {
        return owner.equals(leaseOwner) && runId.equals(leaseRunId) && leaseAttempt != null
                && leaseAttempt == attempt;
    }

    /** True when the lane waits, parked, for {@code runId}'s replies ({@link Lanes#resume}). */
    public boolean isParkedFor(String runId) {
        return LaneRows.PARKED.equals(leaseOwner) && runId.equals(leaseRunId);
    }

    /** The lane with the thread's workspace line at {@code head} (after this transaction moved it). */
    public Lane withWorkspace(String head) {
        return new Lane(threadId, leaseOwner, leaseUntil, leaseRunId, leaseAttempt, nextSeq, dbNow,
                runtime.withWorkspace(head));
    }

    Lane leased(String owner, long until, String runId, int attempt) {
        return new Lane(threadId, owner, until, runId, attempt, nextSeq, dbNow, runtime);
    }

    Lane released() {
        return new Lane(threadId, null, null, null, null, nextSeq, dbNow, runtime);
    }

    /** The lane after a run took sequence number {@code nextSeq}. */
    Lane advanced() {
        return new Lane(threadId, leaseOwner, leaseUntil, leaseRunId, leaseAttempt, nextSeq + 1, dbNow, runtime);
    }
}
