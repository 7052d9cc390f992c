package dev.switchboard.core.lane;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The lane transactions that the runner and the lease keeper call (each method is one
 * transaction): {@link LaneLedger} in the container, a fake in unit tests.
 */
public interface LaneStore {

    /**
     * What finishing a run did. {@code fenced}: the attempt no longer owned the run, nothing was
     * recorded; {@code wake}: lanes that have work since, {@code cancel}: lanes whose runs are to be
     * cancelled — what the run's endings said ({@link RunEnding}).
     */
    record FinishResult(boolean fenced, ClaimResult next, List<Long> wake, List<Long> cancel) {

        public FinishResult(boolean fenced, ClaimResult next) {
            this(fenced, next, List.of(), List.of());
        }
    }

    /** What cancelling a lane did: the runs it ended, and lanes below them to cancel in turn. */
    record Cancelled(List<String> runIds, List<Long> lanes) {
    }

    /** A heartbeat's outcome: the attempts whose leases were renewed, and leases this owner holds for nothing it executes. */
    record Renewal(Set<RunAttempt> held, Set<Long> orphanedThreads) {
    }

    /**
     * Claims the head of the thread's lane for {@code owner}, adopts the attempt its own live lease
     * covers, or does nothing while another owner's lease is live.
     */
    ClaimResult claim(long threadId, String owner);

    /**
     * Records the attempt's result unless fenced, releases its lease, and — with {@code chain} —
     * claims (or adopts) the lane's next work in the same transaction.
     */
    FinishResult finish(Claim claim, String owner, String outputJson, String errorMessage, boolean chain);

    /** Extends the live leases {@code owner} holds for {@code executing}; see {@link Renewal}. */
    Renewal renew(String owner, Collection<RunAttempt> executing);

    /** Threads some instance should drive now: queued work without a live lease, or an expired lease. */
    List<Long> claimableThreads(int limit);

    /** Threads whose lease {@code owner} holds, live or expired. */
    List<Long> leasedTo(String owner);

    /**
     * Cancels the unfinished runs of a path's lane (a reply or timeout closed the path), closing
     * the paths below them.
     */
    Cancelled cancelLane(long threadId);

    /** Hands the thread's lane back (graceful stop): its executing run is queued again, not as a crash. */
    boolean handBack(long threadId, String owner);
}
