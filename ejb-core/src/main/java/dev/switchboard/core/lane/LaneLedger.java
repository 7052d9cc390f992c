package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.persistence.run.RunState;
import jakarta.annotation.Resource;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * The lane's transactions, in plain JDBC ({@link LaneRows}). Each public method is one transaction
 * that first locks the thread row ({@link LaneRows#lock}), so claims, completions and ingests of one thread are serialised by
 * the database — across every instance sharing it — and every lease time is the database's (run
 * times, like every other time an instance records, are its own clock's).
 */
@Stateless
@LocalBean
public class LaneLedger implements LaneStore {

    private static final RunEnd CANCELLED = RunEnd.failed("cancelled", "cancelled");

    @Inject
    LaneRows rows;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    LaneSettings settings;

    @Inject
    LaneHead head;

    @Inject
    RunEnds ends;

    @Inject
    Lanes lanes;

    @Inject
    InstanceClock clock;

    @Inject
    LaneFeatures features;

    @Override
    public ClaimResult claim(long threadId, String owner) {
        Lane lane = rows.lock(threadId);
        return lane == null ? ClaimResult.none() : head.claim(lane, owner);
    }

    /**
     * Records the result of {@code claim}'s attempt — unless the fence says the attempt no longer
     * owns the run: its lease moved on, the run was cancelled, or a newer attempt took it — and,
     * with {@code chain}, claims the lane's next work in the same transaction. A retry of a finish
     * whose commit outcome was never learned finds itself fenced and adopts the next run its first
     * try claimed ({@link LanePolicy.Decision#ADOPT}), so nothing it committed is stranded.
     * An attempt that holds the lane's lease executes the lane's head (claims take only heads, one
     * at a time), so one read of the lane's two oldest unfinished runs serves both the fence and
     * the chained claim.
     */
    @Override
    public FinishResult finish(Claim claim, String owner, String outputJson, String errorMessage, boolean chain) {
        Lane lane = rows.lock(claim.threadId());
        if (lane == null) {
            return new FinishResult(true, ClaimResult.none());
        }
        List<LaneRun> pair = rows.headPair(lane.threadId());
        LaneRun run = pair.isEmpty() ? null : pair.get(0);
        boolean owned = run != null && run.runId().equals(claim.runId())
                && lane.isLeasedTo(owner, claim.runId(), claim.attempt()) && run.isExecutingAttempt(claim.attempt());
        if (!owned) {
            return new FinishResult(true, chain ? head.claim(lane, owner, run) : ClaimResult.none());
        }
        long now = clock.millis();
        String errorCode = null;
        String error = errorMessage;
        List<UnaryOperator<Lane>> keeps = new ArrayList<>(2); // applied if the run succeeds or parks
        RunEnding.Park park = null;
        if (error == null) {
            RunEnding.Ending ending = new RunEnding.Ending(claim, lane, run, outputJson, now);
            for (RunEnding feature : features.endings()) {
                RunEnding.Review review = feature.review(ending);
                if (review.keep() != null) {
                    keeps.add(review.keep());
                }
                if (review.fails()) {
                    errorCode = review.errorCode();
                    error = review.error();
                    break;
                }
                if (review.park() != null) {
                    park = review.park();
                    break;
                }
            }
        }
        if (park != null) { // a run that waits keeps what it changed so far
            return park(claim, owner, keep(lane, keeps), run, park, chain, now);
        }
        RunEnd end = error != null ? RunEnd.failed(errorCode, error)
                : RunEnd.succeeded(outputJson);
        LaneEffects effects = ends.end(run, end, claim.attempt(), true, now);
        if (end.state() == RunState.SUCCEEDED) {
            lane = keep(lane, keeps); // the next run chained below starts from the lane as changed
        }
        Lane released = lane.released();
        if (chain) {
            ClaimResult next = head.claim(released, owner, pair.size() > 1 ? pair.get(1) : null);
            if (next.claim().isEmpty()) {
                rows.write(released); // a claim writes its own lease over this one
            }
            return new FinishResult(false, next, effects.wake(), effects.cancel());
        }
        rows.write(released);
        return new FinishResult(false, ClaimResult.none(), effects.wake(), effects.cancel());
    }

    private static Lane keep(Lane lane, List<UnaryOperator<Lane>> keeps) {
        Lane kept = lane;
        for (UnaryOperator<Lane> keep : keeps) {
            kept = keep.apply(kept);
        }
        return kept;
    }

    /**
     * A feature parked the run: it waits for something outside the lane — still executing, its lane
     * parked (no instance holds it, none may claim it) — or, when that was answered at once, is
     * queued again and claimed (with {@code chain}) to go on.
     */
    private FinishResult park(Claim claim, String owner, Lane lane, LaneRun run,
            RunEnding.Park park, boolean chain, long now) {
        List<Long> wake = park.wake();
        if (park.waits()) {
            rows.write(lane.leased(LaneRows.PARKED, LaneRows.PARKED_UNTIL, run.runId(), claim.attempt()));
            return new FinishResult(false, ClaimResult.none(), wake, List.of());
        }
        rows.requeue(run.runId(), claim.attempt(), now);
        Lane released = lane.released();
        if (chain) {
            ClaimResult next = head.claim(released, owner);
            if (next.claim().isEmpty()) {
                rows.write(released);
            }
            return new FinishResult(false, next, wake, List.of());
        }
        rows.write(released);
        return new FinishResult(false, ClaimResult.none(), List.of(lane.threadId()), List.of());
    }

    @Override
    public Cancelled cancelLane(long threadId) {
        Lane lane = rows.lock(threadId);
        if (lane == null) {
            return new Cancelled(List.of(), List.of());
        }
        Lanes.Ended ended = lanes.endAll(lane, CANCELLED, false);
        return new Cancelled(ended.runs().stream().map(LaneRun::runId).toList(), ended.effects().cancel());
    }

    /**
     * Cancels every unfinished run of the thread, queued or executing (jagc J6): each ends
     * {@code failed} with code {@code cancelled}, and the lane's lease is released, so the lane
     * is free at once. The executing owner's next renewal fails, which stops its engine; its
     * result is fenced out. Returns the cancelled run ids.
     */
    public List<String> cancel(long threadId) {
        return cancelLane(threadId).runIds();
    }

    /**
     * As {@link #cancel(long)} for the run the lane executes only; the queued runs stay queued, and
     * the lane, free, claims its head on its next wake-up.
     */
    public List<String> cancelExecuting(long threadId) {
        Lane lane = rows.lock(threadId);
        return lane == null ? List.of()
                : lanes.endAll(lane, CANCELLED, true).runs().stream().map(LaneRun::runId).toList();
    }

    @Override
    public boolean handBack(long threadId, String owner) {
        Lane lane = rows.lock(threadId);
        if (lane == null || !owner.equals(lane.leaseOwner())) {
            return false;
        }
        if (lane.leaseRunId() != null && lane.leaseAttempt() != null) {
            rows.requeue(lane.leaseRunId(), lane.leaseAttempt(), clock.millis());
        }
        rows.write(lane.released());
        return true;
    }

    @Override
    public List<Long> leasedTo(String owner) {
        return rows.leasedTo(owner);
    }

    /**
     * Renews, by the database's clock, each live lease {@code owner} holds for an attempt it
     * executes. A lease that expired is never renewed — once expired, only a claim may take the
     * lane again — and one held for nothing executing is reported as orphaned (its claim's commit
     * was never learned), so the owner adopts it.
     */
    @Override
    public Renewal renew(String owner, Collection<RunAttempt> executing) {
        Set<RunAttempt> held = new HashSet<>();
        Set<Long> orphaned = new HashSet<>();
        for (Lane lane : rows.lockLeasedTo(owner)) {
            long now = lane.dbNow();
            if (lane.leaseUntil() == null || lane.leaseUntil() < now || lane.leaseAttempt() == null) {
                continue;
            }
            RunAttempt leased = new RunAttempt(lane.leaseRunId(), lane.leaseAttempt());
            if (executing.contains(leased)) {
                rows.write(lane.leased(owner, now + settings.leaseMs(), leased.runId(), leased.attempt()));
                held.add(leased);
            } else {
                orphaned.add(lane.threadId());
            }
        }
        return new Renewal(held, orphaned);
    }

    /** Runs waiting in any lane, cluster-wide; read without a transaction of its own. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public QueuedRuns queued() {
        return rows.queued();
    }

    @Override
    public List<Long> claimableThreads(int limit) {
        return rows.claimable(limit);
    }

    /**
     * How long PostgreSQL lets one of this instance's sessions sit idle inside a transaction
     * before ending it, in ms (0: never) — the longest an instance frozen mid-transaction can
     * hold a lane's lock; empty on other databases.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public OptionalLong idleInTransactionTimeoutMs() {
        try (Connection c = dataSource.getConnection()) {
            if (!"PostgreSQL".equals(c.getMetaData().getDatabaseProductName())) {
                return OptionalLong.empty();
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT setting FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'")) {
                return rs.next() ? OptionalLong.of(Long.parseLong(rs.getString(1))) : OptionalLong.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read idle_in_transaction_session_timeout", e);
        }
    }
}
