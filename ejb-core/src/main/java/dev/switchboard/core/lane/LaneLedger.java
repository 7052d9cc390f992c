package dev.switchboard.core.lane;

import dev.switchboard.core.turn.TurnEvents;
import dev.switchboard.core.turn.TurnTracker;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The lane's transactions. Each public method is one transaction that first locks the thread
 * row, so claims, completions and ingests of one thread are serialised by the database — across
 * every instance sharing it.
 */
@Stateless
public class LaneLedger {


    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    LaneSettings settings;

    @Inject
    TurnEvents events;

    private LaneHead head() {
        return new LaneHead(em, settings, new TurnTracker(em, events));
    }

    /** Outcome of finishing a run. {@code fenced} means a newer attempt owns the run: nothing was written. */
    public record FinishResult(boolean fenced, ClaimResult next) {
    }

    /** Claims the head of the thread's lane for {@code owner}, unless its lease is live elsewhere. */
    public ClaimResult claim(long threadId, String owner) {
        ThreadRecord thread = em.find(ThreadRecord.class, threadId, LockModeType.PESSIMISTIC_WRITE);
        if (thread == null) {
            return ClaimResult.none();
        }
        return head().claim(thread, owner, System.currentTimeMillis());
    }

    /**
     * Records the result of {@code claim}'s attempt — unless the fence says a newer attempt owns
     * the run — and, in the same transaction, claims the thread's next run.
     */
    public FinishResult finish(Claim claim, String owner, String outputJson, String errorMessage) {
        ThreadRecord thread = em.find(ThreadRecord.class, claim.threadId(), LockModeType.PESSIMISTIC_WRITE);
        RunRecord run = em.find(RunRecord.class, claim.runId());
        boolean holdsLease = thread != null && owner.equals(thread.getLeaseOwner())
                && claim.runId().equals(thread.getLeaseRunId());
        if (run == null || !holdsLease || !run.isExecutingAttempt(claim.attempt())) {
            return new FinishResult(true, ClaimResult.none());
        }
        long now = System.currentTimeMillis();
        if (errorMessage == null) {
            run.succeed(outputJson, now);
        } else {
            run.fail(errorMessage, now);
        }
        new TurnTracker(em, events).runEnded(run);
        thread.releaseLease();
        return new FinishResult(false, head().claim(thread, owner, now));
    }

    /**
     * Cancels every unfinished run of the thread, queued or executing (jagc J6): each ends
     * {@code failed} with code {@code cancelled}, and the lane's lease is released, so the lane
     * is free at once. An executing owner's later result is fenced out. Returns the cancelled run ids.
     */
    public List<String> cancel(long threadId) {
        ThreadRecord thread = em.find(ThreadRecord.class, threadId, LockModeType.PESSIMISTIC_WRITE);
        if (thread == null) {
            return List.of();
        }
        long now = System.currentTimeMillis();
        List<String> cancelled = new ArrayList<>();
        TurnTracker turns = new TurnTracker(em, events);
        for (RunRecord run : em.createNamedQuery(RunRecord.LANE, RunRecord.class)
                .setParameter("threadId", threadId)
                .setParameter("queued", RunState.QUEUED)
                .setParameter("executing", RunState.EXECUTING)
                .getResultList()) {
            run.fail("cancelled", "cancelled", now);
            cancelled.add(run.getRunId());
            turns.runEnded(run);
        }
        thread.releaseLease();
        return cancelled;
    }

    /**
     * Hands the lanes of unfinished runs back (graceful shutdown): the runs become queued again
     * and the leases are released, so any instance can continue at once.
     */
    public int release(Collection<Claim> claims, String owner) {
        int released = 0;
        long now = System.currentTimeMillis();
        for (Claim claim : claims) {
            ThreadRecord thread = em.find(ThreadRecord.class, claim.threadId(), LockModeType.PESSIMISTIC_WRITE);
            RunRecord run = em.find(RunRecord.class, claim.runId());
            if (thread != null && run != null && owner.equals(thread.getLeaseOwner())
                    && run.isExecutingAttempt(claim.attempt())) {
                run.requeue(now);
                thread.releaseLease();
                released++;
            }
        }
        return released;
    }

    /** Extends the leases this owner holds for the given runs; returns how many it still held. */
    public int renew(String owner, Collection<String> runIds) {
        if (runIds.isEmpty()) {
            return 0;
        }
        return em.createQuery("UPDATE ThreadRecord t SET t.leaseUntil = :until "
                        + "WHERE t.leaseOwner = :owner AND t.leaseRunId IN :runIds")
                .setParameter("until", System.currentTimeMillis() + settings.leaseMs())
                .setParameter("owner", owner)
                .setParameter("runIds", runIds)
                .executeUpdate();
    }

    /**
     * Threads some instance should drive now: with queued runs and no live lease, or with a lease
     * that expired (its owner crashed or hung).
     */
    public List<Long> claimableThreads(int limit) {
        long now = System.currentTimeMillis();
        List<Long> ids = new ArrayList<>(em.createQuery(
                        "SELECT DISTINCT r.threadId FROM RunRecord r, ThreadRecord t WHERE r.state = :queued "
                                + "AND t.id = r.threadId AND (t.leaseOwner IS NULL OR t.leaseUntil < :now)", Long.class)
                .setParameter("queued", RunState.QUEUED)
                .setParameter("now", now)
                .setMaxResults(limit)
                .getResultList());
        for (Long expired : em.createNamedQuery(ThreadRecord.EXPIRED_LEASES, Long.class)
                .setParameter("now", now)
                .setMaxResults(limit)
                .getResultList()) {
            if (!ids.contains(expired)) {
                ids.add(expired);
            }
        }
        return ids;
    }

}
