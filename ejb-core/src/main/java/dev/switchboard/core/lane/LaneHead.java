package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The claim, inside the caller's transaction. Every transaction that changes a lane — an
 * ingest, a claim, a finish, a cancel, a turn call — first {@linkplain ThreadRepository#lock locks}
 * the thread row, which also reads the database's clock: lease times are that clock's, never an
 * instance's (run times stay the instance's, like every other time it records). {@link #claim}
 * then applies {@link LanePolicy} to the locked lane.
 */
@ApplicationScoped
public class LaneHead {

    private static final Logger LOG = Logger.getLogger(LaneHead.class.getName());

    @Inject
    ThreadRepository repository;

    @Inject
    LaneSettings settings;

    @Inject
    LaneListener listener;

    @Inject
    InstanceClock clock;

    @Inject
    Meters meters;

    /**
     * Claims the lane head for {@code owner}, adopts the attempt {@code owner}'s own live lease
     * covers, or leaves a lane another owner holds alone; heads that crashed too often are
     * abandoned on the way. The thread row must be locked ({@link ThreadRepository#lock}); the head is read
     * without a flush, so a run this transaction persisted is only seen if flushed or passed as
     * {@code added} to {@link #claim(ThreadRepository.Locked, String, RunRecord)}.
     */
    public ClaimResult claim(ThreadRepository.Locked lane, String owner) {
        return claim(lane, owner, null, 0);
    }

    /**
     * As {@link #claim(ThreadRepository.Locked, String)}, right after this transaction ended the
     * lane's executing run, whose place is {@code endedSeq}: every run before it had ended before
     * it was claimed, so the head is looked for after it — one read instead of two, since the
     * database still holds the ended run unfinished until this transaction commits.
     */
    public ClaimResult claimAfter(ThreadRepository.Locked lane, String owner, long endedSeq) {
        return claim(lane, owner, null, endedSeq);
    }

    /**
     * As {@link #claim(ThreadRepository.Locked, String)}, right after this transaction persisted
     * {@code added}, the lane's newest run, without flushing it: when the lane holds no other unfinished run,
     * {@code added} is its head, and a claim of it is written with its insert.
     */
    public ClaimResult claim(ThreadRepository.Locked lane, String owner, RunRecord added) {
        return claim(lane, owner, added, 0);
    }

    private ClaimResult claim(ThreadRepository.Locked lane, String owner, RunRecord added, long endedSeq) {
        ThreadRecord thread = lane.thread();
        long dbNow = lane.dbNow();
        long now = clock.millis(); // run times; leases use dbNow
        LanePolicy policy = settings.policy();
        List<String> abandoned = new ArrayList<>();
        while (true) {
            RunRecord stored = laneHead(thread.getId(), endedSeq);
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
                    repository.flush();
                    break;
                case RECOVER:
                    LOG.warning(() -> "Recovering run " + head.getRunId() + " of thread " + thread.getId() + ": attempt "
                            + head.getAttempt() + " by " + head.getClaimedBy() + " lost its lease (owner "
                            + thread.getLeaseOwner() + ", expired " + (thread.getLeaseUntil() == null ? "-"
                                    : (dbNow - thread.getLeaseUntil()) + " ms ago by the database's clock") + ")");
                    head.recoverCrashed(now);
                    meters.leaseTakeover();
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

    /**
     * The lane's oldest unfinished run, read without flushing this transaction's changes first, so
     * that a finish and the claim it chains are written once, at commit: a run the database still
     * holds unfinished but this transaction has ended is skipped in memory. Runs persisted in this
     * transaction and not yet flushed are not seen. The search starts after {@code endedSeq} (0:
     * at the lane's start).
     */
    private RunRecord laneHead(long threadId, long endedSeq) {
        long afterSeq = endedSeq; // thread seqs start at 1
        while (true) {
            RunRecord run = repository.unfinishedAfter(threadId, afterSeq); // the managed copy, with this transaction's changes
            if (run == null || !run.getState().isTerminal()) {
                return run;
            }
            afterSeq = run.getThreadSeq();
        }
    }
}
