package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.delegation.PathLedger;
import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.engine.WorkspaceTurn;
import dev.switchboard.core.thread.LaneRows;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.core.workspace.LineMove;
import dev.switchboard.persistence.run.RunState;
import jakarta.annotation.Resource;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
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

    @Inject
    ThreadRepository repository;

    @Inject
    LaneRows rows;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    LaneSettings settings;

    @Inject
    LaneHead head;

    @Inject
    LaneListener listener;

    @Inject
    InstanceClock clock;

    @Inject
    PathLedger paths;

    /** The error of an outer unit of work whose delegation ended without a final answer (§3.8). */
    static final String INCOMPLETE = "incomplete: the delegation ended without a final answer";
    /** The error of a turn whose workspace line moved while it worked. */
    static final String WORKSPACE_CONFLICT = "workspace_conflict: the thread's workspace line moved during the turn;"
            + " its changes were not kept";
    private static final String WORKSPACE_MEMBER = "\"" + WorkspaceTurn.OUTPUT_KEY + "\":{";
    /** The error of an execution whose output asked for calls but named none it could read. */
    static final String NO_CALLS = "the engine asked for calls but named none";

    @Override
    public ClaimResult claim(long threadId, String owner) {
        LaneRows.Lane lane = rows.lock(threadId);
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
        LaneRows.Lane lane = rows.lock(claim.threadId());
        if (lane == null) {
            return new FinishResult(true, ClaimResult.none());
        }
        List<LaneRows.LaneRun> pair = rows.headPair(lane.threadId());
        LaneRows.LaneRun run = pair.isEmpty() ? null : pair.get(0);
        boolean owned = run != null && run.runId().equals(claim.runId())
                && lane.isLeasedTo(owner, claim.runId(), claim.attempt()) && run.isExecutingAttempt(claim.attempt());
        if (!owned) {
            return new FinishResult(true, chain ? head.claim(lane, owner, run) : ClaimResult.none());
        }
        long now = clock.millis();
        String error = errorMessage;
        LineMove kept = LineMove.NONE; // where the line moves if the execution's end keeps its changes
        if (error == null && outputJson != null && outputJson.contains(WORKSPACE_MEMBER)) {
            kept = lineMove(lane, outputJson);
            if (kept.conflict()) {
                error = WORKSPACE_CONFLICT;
            }
        }
        if (error == null && PathLedger.asksForCalls(outputJson)) {
            JsonObject output = PathLedger.parse(outputJson);
            Optional<List<Delegation.Call>> calls = Delegation.callsIn(output);
            if (calls.isEmpty()) {
                error = NO_CALLS;
            } else {
                PathLedger.Dispatch dispatch = paths.dispatch(run, calls.get(), Delegation.stateIn(output), now);
                if (dispatch.refusal() == null) { // a turn that waits keeps what it changed so far
                    return park(claim, owner, keep(lane, kept), run, dispatch, chain, now);
                }
                error = dispatch.refusal();
            }
        }
        boolean pathRun = PathLedger.isPathRun(run.userKey());
        LaneRows.RunEnd end = error != null ? LaneRows.RunEnd.failed(null, error)
                : !pathRun && PathLedger.answersNothing(outputJson) ? LaneRows.RunEnd.failed("incomplete", INCOMPLETE)
                : LaneRows.RunEnd.succeeded(outputJson);
        rows.end(run.runId(), end, now);
        listener.runEnded(run, end);
        if (end.state() == RunState.SUCCEEDED) {
            lane = keep(lane, kept); // the next run chained below starts from the new head
        }
        PathLedger.Effects effects = PathLedger.Effects.NONE;
        if (pathRun) {
            effects = paths.replied(run, end, now);
        } else if (claim.attempt() > 1) { // a unit of work that delegated ran again: its tree closes with it
            paths.rootEnded(run.runId(), end, now);
        }
        LaneRows.Lane released = lane.released();
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

    /** What the execution's workspace output does to the thread's line ({@link LineMove}). */
    private static LineMove lineMove(LaneRows.Lane lane, String outputJson) {
        JsonObject output = PathLedger.parse(outputJson);
        if (!(output.get(WorkspaceTurn.OUTPUT_KEY) instanceof JsonObject change)) {
            return LineMove.NONE;
        }
        return LineMove.of(lane.runtime().workspace(), change.getString("base", null),
                change.get("commit") instanceof jakarta.json.JsonString commit ? commit.getString() : null);
    }

    /** Moves the thread's workspace line as {@code move} says; the lane as it is then. */
    private LaneRows.Lane keep(LaneRows.Lane lane, LineMove move) {
        if (!move.moves()) {
            return lane;
        }
        rows.moveWorkspace(lane.threadId(), move.to());
        return lane.withWorkspace(move.to());
    }

    /**
     * The execution asked for calls, now dispatched: the run waits for their replies —
     * still executing, its lane parked ({@link PathLedger#PARKED}: no instance holds it, none may
     * claim it) — or, when every call was answered at once (refused), is queued again and claimed
     * (with {@code chain}) to go on with the answers.
     */
    private FinishResult park(Claim claim, String owner, LaneRows.Lane lane, LaneRows.LaneRun run,
            PathLedger.Dispatch dispatch, boolean chain, long now) {
        List<Long> wake = dispatch.effects().wake();
        if (dispatch.waits()) {
            rows.write(lane.leased(PathLedger.PARKED, PathLedger.PARKED_UNTIL, run.runId(), claim.attempt()));
            return new FinishResult(false, ClaimResult.none(), wake, List.of());
        }
        rows.requeue(run.runId(), claim.attempt(), now);
        LaneRows.Lane released = lane.released();
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
        return new Cancelled(cancel(threadId), List.of());
    }

    /** Call slots past their deadline (read without a transaction of its own). */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<PathLedger.SlotRow> overdueCalls() {
        return paths.overdue(clock.millis());
    }

    /** Times the call slot out, if it is still pending and overdue (one transaction). */
    public PathLedger.Effects expireCall(String callerRunId, int slot) {
        return paths.expire(callerRunId, slot, clock.millis());
    }

    /** Live paths whose run has ended (read without a transaction of its own). */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<PathLedger.Orphan> orphanPaths() {
        return paths.orphans();
    }

    /** Closes an orphaned path and what lives below it (one transaction). */
    public PathLedger.Effects closeOrphan(PathLedger.Orphan orphan) {
        return paths.closeOrphan(orphan.uuid(), orphan.ended(), clock.millis());
    }

    /**
     * Cancels every unfinished run of the thread, queued or executing (jagc J6): each ends
     * {@code failed} with code {@code cancelled}, and the lane's lease is released, so the lane
     * is free at once. The executing owner's next renewal fails, which stops its engine; its
     * result is fenced out. Returns the cancelled run ids.
     */
    public List<String> cancel(long threadId) {
        LaneRows.Lane lane = rows.lock(threadId);
        if (lane == null) {
            return List.of();
        }
        List<String> cancelled = new ArrayList<>();
        for (LaneRows.LaneRun run : rows.unfinished(threadId)) {
            LaneRows.RunEnd end = LaneRows.RunEnd.failed("cancelled", "cancelled");
            rows.end(run.runId(), end, clock.millis());
            cancelled.add(run.runId());
            listener.runEnded(run, end);
        }
        if (lane.leaseOwner() != null) {
            rows.write(lane.released());
        }
        return cancelled;
    }

    @Override
    public boolean handBack(long threadId, String owner) {
        LaneRows.Lane lane = rows.lock(threadId);
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
        return repository.leasedTo(owner);
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
        for (LaneRows.Lane lane : rows.lockLeasedTo(owner)) {
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
    public ThreadRepository.QueuedRuns queued() {
        return repository.queued();
    }

    @Override
    public List<Long> claimableThreads(int limit) {
        return repository.claimable(limit);
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
