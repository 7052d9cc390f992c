package dev.switchboard.core.lane;

import dev.switchboard.core.turn.TurnTracker;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Applies {@link LanePolicy} to a lane whose thread row the caller's transaction has locked:
 * claims the head run, or fails heads whose owner died on their last attempt. Shared by every
 * transaction that may start a run — a claim, a finish (which chains the next run) and an ingest
 * into an idle lane.
 */
public final class LaneHead {

    private static final Logger LOG = Logger.getLogger(LaneHead.class.getName());

    private final EntityManager em;
    private final LaneSettings settings;
    private final TurnTracker turns;

    public LaneHead(EntityManager em, LaneSettings settings, TurnTracker turns) {
        this.em = em;
        this.settings = settings;
        this.turns = turns;
    }

    /** Claims the lane head for {@code owner} unless the lease is live; the thread row must be locked. */
    public ClaimResult claim(ThreadRecord thread, String owner, long now) {
        LanePolicy policy = new LanePolicy(settings.maxAttempts());
        List<String> abandoned = new ArrayList<>();
        while (true) {
            RunRecord head = laneHead(thread.getId());
            LanePolicy.Decision decision = policy.decide(thread.getLeaseOwner(), thread.getLeaseUntil(),
                    head == null ? null : head.getState(), head == null ? 0 : head.getAttempt(), now);
            switch (decision) {
                case BUSY:
                    return new ClaimResult(Optional.empty(), abandoned);
                case IDLE:
                    if (thread.getLeaseOwner() != null) {
                        thread.releaseLease();
                    }
                    return new ClaimResult(Optional.empty(), abandoned);
                case ABANDON:
                    head.fail("abandoned", policy.abandonReason(head.getAttempt()), now);
                    abandoned.add(head.getRunId());
                    turns.runEnded(head);
                    thread.releaseLease();
                    em.flush();
                    break;
                case CLAIM:
                    if (head.getState() == RunState.EXECUTING) {
                        LOG.warning("Recovering run " + head.getRunId() + " of thread " + thread.getId()
                                + ": attempt " + head.getAttempt() + " by " + head.getClaimedBy()
                                + " lost its lease (owner " + thread.getLeaseOwner() + ", expired "
                                + (thread.getLeaseUntil() == null ? "-" : (now - thread.getLeaseUntil()) + " ms ago")
                                + ")");
                        head.requeue(now);
                    }
                    int attempt = head.claim(owner, now);
                    thread.grantLease(owner, now + settings.leaseMs(), head.getRunId());
                    turns.runStarted(head);
                    return new ClaimResult(Optional.of(new Claim(head.getRunId(), thread.getId(), attempt,
                            head.getUserKey(), head.getThreadKey(), head.getInputText(), head.getDeliveryMode())),
                            abandoned);
                default:
                    throw new IllegalStateException("unhandled decision " + decision);
            }
        }
    }

    private RunRecord laneHead(long threadId) {
        List<RunRecord> head = em.createNamedQuery(RunRecord.LANE, RunRecord.class)
                .setParameter("threadId", threadId)
                .setParameter("queued", RunState.QUEUED)
                .setParameter("executing", RunState.EXECUTING)
                .setMaxResults(1)
                .getResultList();
        return head.isEmpty() ? null : head.get(0);
    }
}
