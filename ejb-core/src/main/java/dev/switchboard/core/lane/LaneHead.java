package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.persistence.run.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The claim, inside the caller's transaction. Every transaction that changes a lane — an
 * ingest, a claim, a finish, a cancel, a turn call — first {@linkplain Lanes#lock locks} the
 * thread row, which also reads the database's clock: lease times are that clock's, never an
 * instance's (run times stay the instance's, like every other time it records). {@link #claim}
 * then applies {@link LanePolicy} to the locked lane.
 */
@ApplicationScoped
public class LaneHead {

    private static final Logger LOG = Logger.getLogger(LaneHead.class.getName());

    @Inject
    LaneRows rows;

    @Inject
    LaneSettings settings;

    @Inject
    LaneListener listener;

    @Inject
    InstanceClock clock;

    @Inject
    Meters meters;

    @Inject
    RunEnds ends;

    /**
     * Claims the lane head for {@code owner}, adopts the attempt {@code owner}'s own live lease
     * covers, or leaves a lane another owner holds alone; heads that crashed too often are
     * abandoned on the way. {@code lane} must be locked by this transaction ({@link Lanes#lock});
     * runs it added through the persistence context must be flushed.
     */
    public ClaimResult claim(Lane lane, String owner) {
        return claim(lane, owner, rows.head(lane.threadId(), 0));
    }

    /**
     * As {@link #claim(Lane, String)}, with the lane head already read in this
     * transaction (null: the lane holds no unfinished run).
     */
    public ClaimResult claim(Lane lane, String owner, LaneRun head) {
        long now = clock.millis(); // run times; leases use the lane's dbNow
        LanePolicy policy = settings.policy();
        List<String> abandoned = new ArrayList<>();
        Lane current = lane;
        LaneRun candidate = head;
        while (true) {
            LaneRun run = candidate;
            LanePolicy.Lease lease = LanePolicy.Lease.of(current.leaseOwner(), current.leaseUntil(), owner,
                    current.dbNow());
            boolean leaseOnHead = run != null && run.runId().equals(current.leaseRunId())
                    && Objects.equals(current.leaseAttempt(), run.attempt());
            LanePolicy.Decision decision = policy.decide(lease, leaseOnHead, run == null ? null : run.state(),
                    run == null ? 0 : run.crashes());
            switch (decision) {
                case BUSY:
                    return new ClaimResult(Optional.empty(), abandoned);
                case IDLE:
                    if (current.leaseOwner() != null) {
                        rows.write(current.released());
                    }
                    return new ClaimResult(Optional.empty(), abandoned);
                case ADOPT:
                    return new ClaimResult(Optional.of(claimOf(run, current, current.leaseUntil() - current.dbNow())), abandoned);
                case ABANDON:
                    RunEnd end = RunEnd.failed("abandoned", policy.abandonReason(run.crashes() + 1));
                    ends.end(run, end, run.attempt(), false, now); // the poll wakes what it woke
                    abandoned.add(run.runId());
                    current = current.released();
                    rows.write(current);
                    candidate = rows.head(current.threadId(), run.threadSeq());
                    break;
                case RECOVER:
                    Lane held = current;
                    LOG.warning(() -> "Recovering run " + run.runId() + " of thread " + held.threadId() + ": attempt "
                            + run.attempt() + " by " + run.claimedBy() + " lost its lease (owner "
                            + held.leaseOwner() + ", expired " + (held.leaseUntil() == null ? "-"
                                    : (held.dbNow() - held.leaseUntil()) + " ms ago by the database's clock") + ")");
                    meters.leaseTakeover();
                    return new ClaimResult(Optional.of(start(run, current, owner, true, now)), abandoned);
                case CLAIM:
                    return new ClaimResult(Optional.of(start(run, current, owner, false, now)), abandoned);
                default:
                    throw new IllegalStateException("unhandled decision " + decision);
            }
        }
    }

    /**
     * Whether {@code owner} may start a run it is adding to {@code lane} (locked, holding no
     * unfinished run) as it inserts it — the claim the policy would make of that run once inserted.
     */
    public boolean mayStartAdded(Lane lane, String owner) {
        LanePolicy.Lease lease = LanePolicy.Lease.of(lane.leaseOwner(), lane.leaseUntil(), owner, lane.dbNow());
        return settings.policy().decide(lease, false, RunState.QUEUED, 0) == LanePolicy.Decision.CLAIM;
    }

    /**
     * A run inserted started ({@link #mayStartAdded}): writes {@code lane} with the run's lease and
     * tells the listener; returns its claim.
     */
    ClaimResult startedAdded(Lane lane, LaneRun run) {
        rows.write(lane.leased(run.claimedBy(), lane.dbNow() + settings.leaseMs(), run.runId(), run.attempt()));
        listener.runStarted(run);
        return new ClaimResult(Optional.of(claimOf(run, lane, settings.leaseMs())), List.of());
    }

    private Claim start(LaneRun head, Lane lane, String owner, boolean crashed, long now) {
        LaneRun started = rows.start(head, owner, crashed, now);
        rows.write(lane.leased(owner, lane.dbNow() + settings.leaseMs(), started.runId(), started.attempt()));
        listener.runStarted(started);
        return claimOf(started, lane, settings.leaseMs());
    }

    private static Claim claimOf(LaneRun head, Lane lane, long leaseLeftMs) {
        return new Claim(head.runId(), head.threadId(), head.attempt(), leaseLeftMs,
                Math.max(0, lane.dbNow() - head.createdAt()), head.payload(), lane.payload());
    }
}
