package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.thread.DatabaseClock;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The lane lock and the claim, inside the caller's transaction. Every transaction that changes a
 * lane — an ingest, a claim, a finish, a cancel, a turn call — first {@linkplain #lock locks} the
 * thread row, which also reads the database's clock: lease times are that clock's, never an
 * instance's (run times stay the instance's, like every other time it records). {@link #claim} then applies {@link LanePolicy} to the locked lane.
 */
@ApplicationScoped
public class LaneHead {

    private static final Logger LOG = Logger.getLogger(LaneHead.class.getName());
    private static final String LOCK = "SELECT t.*, " + DatabaseClock.NOW_MS
            + " AS db_now FROM threads t WHERE t.id = ? FOR UPDATE";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    LaneSettings settings;

    @Inject
    LaneListener listener;

    @Inject
    InstanceClock clock;

    /** A thread row locked by the current transaction, and the database's time read with it (epoch ms). */
    public record Locked(ThreadRecord thread, long dbNow) {
    }

    /** Locks the thread row for the rest of the transaction; null when there is no such thread. */
    public Locked lock(long threadId) {
        List<?> rows = em.createNativeQuery(LOCK, ThreadRecord.WITH_DB_NOW)
                .setParameter(1, threadId)
                .setHint("eclipselink.refresh", "true") // a copy read earlier in this transaction is not the locked row
                .getResultList();
        if (rows.isEmpty()) {
            return null;
        }
        Object[] row = (Object[]) rows.get(0);
        return new Locked((ThreadRecord) row[0], ((Number) row[1]).longValue());
    }

    /**
     * Claims the lane head for {@code owner}, adopts the attempt {@code owner}'s own live lease
     * covers, or leaves a lane another owner holds alone; heads that crashed too often are
     * abandoned on the way. The thread row must be locked ({@link #lock}); the head is read
     * without a flush, so a run this transaction persisted is only seen if flushed or passed as
     * {@code added} to {@link #claim(Locked, String, RunRecord)}.
     */
    public ClaimResult claim(Locked lane, String owner) {
        return claim(lane, owner, null);
    }

    /**
     * As {@link #claim(Locked, String)}, right after this transaction persisted {@code added}, the
     * lane's newest run, without flushing it: when the lane holds no other unfinished run,
     * {@code added} is its head, and a claim of it is written with its insert.
     */
    public ClaimResult claim(Locked lane, String owner, RunRecord added) {
        ThreadRecord thread = lane.thread();
        long dbNow = lane.dbNow();
        long now = clock.millis(); // run times; leases use dbNow
        LanePolicy policy = settings.policy();
        List<String> abandoned = new ArrayList<>();
        while (true) {
            RunRecord stored = laneHead(thread.getId());
            RunRecord head = stored != null || added == null || added.getState().isTerminal() ? stored : added;
            LanePolicy.Lease lease = LanePolicy.Lease.of(thread.getLeaseOwner(), thread.getLeaseUntil(), owner, dbNow);
            boolean leaseOnHead = head != null && head.getRunId().equals(thread.getLeaseRunId())
                    && Objects.equals(thread.getLeaseAttempt(), head.getAttempt());
            LanePolicy.Decision decision = policy.decide(lease, leaseOnHead,
                    head == null ? null : head.getState(), head == null ? 0 : head.getCrashes());
            switch (decision) {
                case BUSY:
                    return new ClaimResult(Optional.empty(), abandoned);
                case IDLE:
                    if (thread.getLeaseOwner() != null) {
                        thread.releaseLease();
                    }
                    return new ClaimResult(Optional.empty(), abandoned);
                case ADOPT:
                    return new ClaimResult(Optional.of(claimOf(head, thread, thread.getLeaseUntil() - dbNow)), abandoned);
                case ABANDON:
                    head.fail("abandoned", policy.abandonReason(head.getCrashes() + 1), now);
                    abandoned.add(head.getRunId());
                    listener.runEnded(head);
                    thread.releaseLease();
                    em.flush();
                    break;
                case RECOVER:
                    LOG.warning(() -> "Recovering run " + head.getRunId() + " of thread " + thread.getId() + ": attempt "
                            + head.getAttempt() + " by " + head.getClaimedBy() + " lost its lease (owner "
                            + thread.getLeaseOwner() + ", expired " + (thread.getLeaseUntil() == null ? "-"
                                    : (dbNow - thread.getLeaseUntil()) + " ms ago by the database's clock") + ")");
                    head.recoverCrashed(now);
                    return new ClaimResult(Optional.of(start(head, thread, owner, now, dbNow)), abandoned);
                case CLAIM:
                    return new ClaimResult(Optional.of(start(head, thread, owner, now, dbNow)), abandoned);
                default:
                    throw new IllegalStateException("unhandled decision " + decision);
            }
        }
    }

    private Claim start(RunRecord head, ThreadRecord thread, String owner, long now, long dbNow) {
        int attempt = head.claim(owner, now);
        thread.grantLease(owner, dbNow + settings.leaseMs(), head.getRunId(), attempt);
        listener.runStarted(head);
        return claimOf(head, thread, settings.leaseMs());
    }

    private static Claim claimOf(RunRecord head, ThreadRecord thread, long leaseLeftMs) {
        return new Claim(head.getRunId(), thread.getId(), head.getAttempt(), head.getUserKey(), head.getThreadKey(),
                head.getInputText(), head.getDeliveryMode(), leaseLeftMs);
    }

    /** The lane's unfinished runs in FIFO order (the first is the head). */
    public List<RunRecord> unfinished(long threadId) {
        return em.createNamedQuery(RunRecord.LANE, RunRecord.class)
                .setParameter(1, threadId)
                .getResultList();
    }

    /**
     * The lane's oldest unfinished run, read without flushing this transaction's changes first, so
     * that a finish and the claim it chains are written once, at commit: a run the database still
     * holds unfinished but this transaction has ended is skipped in memory. Runs persisted in this
     * transaction and not yet flushed are not seen.
     */
    private RunRecord laneHead(long threadId) {
        long afterSeq = 0; // thread seqs start at 1
        while (true) {
            List<RunRecord> head = em.createNamedQuery(RunRecord.LANE_HEAD, RunRecord.class)
                    .setParameter(1, threadId)
                    .setParameter(2, afterSeq)
                    .setFlushMode(FlushModeType.COMMIT)
                    .getResultList();
            if (head.isEmpty()) {
                return null;
            }
            RunRecord run = head.get(0); // the managed copy, with this transaction's changes
            if (!run.getState().isTerminal()) {
                return run;
            }
            afterSeq = run.getThreadSeq();
        }
    }
}
