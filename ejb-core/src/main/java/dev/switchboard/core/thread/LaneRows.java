package dev.switchboard.core.thread;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.DatabaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The lane's statements in plain JDBC, in the caller's transaction (on its shared connection):
 * the per-run path — lock, lane head, claim, finish, the turn's end — without the persistence
 * context's unit of work, with each statement's text fixed so the data source prepares it once
 * per connection. Every statement is keyed by one thread, run or turn, except the owner's sweep of
 * its leases. Statements that change a run name the state they expect, and a row that is not in it
 * fails the transaction ({@link IllegalStateException}) rather than skip a transition. Reads
 * elsewhere keep using the entities ({@link ThreadRepository}); nothing here caches a row.
 */
@ApplicationScoped
public class LaneRows {

    private static final String LANE_COLUMNS = "id, lease_owner, lease_until, lease_run_id, lease_attempt, next_seq, "
            + DatabaseClock.NOW_MS + ", engine, model_id, thinking_level, workspace_head";
    private static final String LOCK = "SELECT " + LANE_COLUMNS + " FROM threads WHERE id = ? FOR UPDATE";
    private static final String MOVE_WORKSPACE = "UPDATE threads SET workspace_head = ? WHERE id = ?";
    private static final String LOCK_LEASED_TO = "SELECT " + LANE_COLUMNS
            + " FROM threads WHERE lease_owner = ? ORDER BY id FOR UPDATE";
    private static final String RUN_COLUMNS = "r.run_id, r.thread_id, r.thread_seq, r.user_key, r.thread_key,"
            + " r.source, r.state, r.input_text, r.delivery_mode, r.turn_id, r.attempt, r.crashes, r.claimed_by,"
            + " r.created_at, t.state, t.started_at, t.merged_into,"
            + " (SELECT count(*) FROM runs o WHERE o.turn_id = r.turn_id), r.input_json, r.kind";
    /* The states as literals: on PostgreSQL a partial index holds only unfinished runs (V7), and
       only a literal predicate lets the planner use it. */
    private static final String UNFINISHED = "SELECT " + RUN_COLUMNS
            + " FROM runs r LEFT JOIN turns t ON t.turn_id = r.turn_id"
            + " WHERE r.thread_id = ? AND r.state IN ('queued', 'executing') AND r.thread_seq > ? ORDER BY r.thread_seq";
    private static final String HEAD = UNFINISHED + " FETCH FIRST 1 ROWS ONLY";
    private static final String HEAD_PAIR = UNFINISHED + " FETCH FIRST 2 ROWS ONLY";
    private static final String UNFINISHED_COUNT = "SELECT count(*) FROM runs"
            + " WHERE thread_id = ? AND state IN ('queued', 'executing')";
    private static final String START = "UPDATE runs SET state = 'executing', attempt = attempt + 1,"
            + " crashes = crashes + ?, claimed_by = ?, started_at = ?, updated_at = ? WHERE run_id = ? AND state = ?";
    private static final String END = "UPDATE runs SET state = ?, output_json = ?, error_code = ?, error_message = ?,"
            + " finished_at = ?, updated_at = ? WHERE run_id = ? AND state IN ('queued', 'executing')";
    private static final String REQUEUE = "UPDATE runs SET state = 'queued', claimed_by = NULL, updated_at = ?"
            + " WHERE run_id = ? AND state = 'executing' AND attempt = ?";
    private static final String WRITE_LANE = "UPDATE threads SET lease_owner = ?, lease_until = ?, lease_run_id = ?,"
            + " lease_attempt = ?, next_seq = ? WHERE id = ?";
    private static final String INSERT_RUN = "INSERT INTO runs (run_id, thread_id, thread_seq, user_key, thread_key,"
            + " source, external_user_key, delivery_mode, state, input_text, input_json, turn_id, attempt, crashes,"
            + " claimed_by, payload_hash, created_at, started_at, updated_at, kind)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    @Inject
    Statements statements;

    /**
     * A locked thread's lease, the sequence number its next run takes, the database's time read
     * with the lock (epoch ms), and the thread's runtime choice (what its runs execute with).
     */
    public record Lane(long threadId, String leaseOwner, Long leaseUntil, String leaseRunId, Integer leaseAttempt,
            long nextSeq, long dbNow, ThreadRuntime runtime) {

        /** True when {@code owner} holds the lease for exactly this attempt of this run (live or not). */
        public boolean isLeasedTo(String owner, String runId, int attempt) {
            return owner.equals(leaseOwner) && runId.equals(leaseRunId) && leaseAttempt != null
                    && leaseAttempt == attempt;
        }

        public Lane leased(String owner, long until, String runId, int attempt) {
            return new Lane(threadId, owner, until, runId, attempt, nextSeq, dbNow, runtime);
        }

        public Lane released() {
            return new Lane(threadId, null, null, null, null, nextSeq, dbNow, runtime);
        }

        /** The lane with the thread's workspace line at {@code head} (after this transaction moved it). */
        public Lane withWorkspace(String head) {
            return new Lane(threadId, leaseOwner, leaseUntil, leaseRunId, leaseAttempt, nextSeq, dbNow,
                    runtime.withWorkspace(head));
        }

        /** The lane after a run took sequence number {@code nextSeq}. */
        public Lane advanced() {
            return new Lane(threadId, leaseOwner, leaseUntil, leaseRunId, leaseAttempt, nextSeq + 1, dbNow, runtime);
        }
    }

    /**
     * An unfinished run as its lane sees it, with its turn as it was when the run was read:
     * whether it is active, when it started and what it was merged into (0 and null without an
     * active turn), and how many runs it has; {@code inputJson} holds structured input items (or null).
     */
    public record LaneRun(String runId, long threadId, long threadSeq, String userKey, String threadKey,
            String source, RunState state, String inputText, String deliveryMode, String turnId, int attempt,
            int crashes, String claimedBy, long createdAt, boolean turnActive, long turnStartedAt,
            String turnMergedInto, int turnRuns, String inputJson, RunKind kind) {

        /** A run started as it was added, the only run of a new turn that started at its creation. */
        public static LaneRun added(RunRecord run) {
            return new LaneRun(run.getRunId(), run.getThreadId(), run.getThreadSeq(), run.getUserKey(),
                    run.getThreadKey(), run.getSource(), run.getState(), run.getInputText(), run.getDeliveryMode(),
                    run.getTurnId(), run.getAttempt(), run.getCrashes(), run.getClaimedBy(), run.getCreatedAt(),
                    run.getTurnId() != null, run.getCreatedAt(), null, 1, run.getInputJson(), run.getKind());
        }

        public boolean isExecutingAttempt(int attempt) {
            return state == RunState.EXECUTING && this.attempt == attempt;
        }

        /** The same run after a transition this transaction made. */
        public LaneRun moved(RunState state, int attempt, int crashes, String claimedBy) {
            return new LaneRun(runId, threadId, threadSeq, userKey, threadKey, source, state, inputText,
                    deliveryMode, turnId, attempt, crashes, claimedBy, createdAt, turnActive, turnStartedAt,
                    turnMergedInto, turnRuns, inputJson, kind);
        }
    }

    /** How a run ended: {@code succeeded} with its output, or {@code failed} with a code (or null) and a message. */
    public record RunEnd(RunState state, String outputJson, String errorCode, String errorMessage) {

        public RunEnd {
            if (!state.isTerminal()) {
                throw new IllegalArgumentException("not an end: " + state);
            }
        }

        public static RunEnd succeeded(String outputJson) {
            return new RunEnd(RunState.SUCCEEDED, outputJson, null, null);
        }

        public static RunEnd failed(String errorCode, String errorMessage) {
            return new RunEnd(RunState.FAILED, null, errorCode, errorMessage);
        }

        /** The engine's own result — its output or its failure — not an end decided around it (cancelled, abandoned: those carry a code). */
        public boolean isEngineResult() {
            return errorCode == null;
        }
    }

    // --- threads ---

    /** Locks the thread row for the rest of the transaction (the lane lock); null when there is no such thread. */
    public Lane lock(long threadId) {
        List<Lane> lanes = statements.query(LOCK, s -> s.setLong(1, threadId), LaneRows::lane, "locking thread " + threadId);
        return lanes.isEmpty() ? null : lanes.get(0);
    }

    /** Locks, in id order, every thread whose lease names {@code owner}. */
    public List<Lane> lockLeasedTo(String owner) {
        return statements.query(LOCK_LEASED_TO, s -> s.setString(1, owner), LaneRows::lane,
                "locking the lanes leased to " + owner);
    }

    /** Writes the lane row as {@code lane} holds it: its lease (released when the owner is null) and next sequence number. */
    /** Moves the thread's workspace line to {@code head} (the caller holds the thread's lock). */
    public void moveWorkspace(long threadId, String head) {
        statements.updateOne(MOVE_WORKSPACE, s -> {
            s.setString(1, head);
            s.setLong(2, threadId);
        }, "moving the workspace line of thread " + threadId);
    }

    public void write(Lane lane) {
        statements.updateOne(WRITE_LANE, s -> {
            s.setString(1, lane.leaseOwner());
            Statements.setLong(s, 2, lane.leaseUntil());
            s.setString(3, lane.leaseRunId());
            Statements.setInt(s, 4, lane.leaseAttempt());
            s.setLong(5, lane.nextSeq());
            s.setLong(6, lane.threadId());
        }, "writing the lane of thread " + lane.threadId());
    }

    // --- runs ---

    /** Inserts a new run (queued, or started as it is added), built as its entity; the persistence context never sees it. */
    public void insert(RunRecord run) {
        statements.update(INSERT_RUN, s -> {
            s.setString(1, run.getRunId());
            s.setLong(2, run.getThreadId());
            s.setLong(3, run.getThreadSeq());
            s.setString(4, run.getUserKey());
            s.setString(5, run.getThreadKey());
            s.setString(6, run.getSource());
            s.setString(7, run.getExternalUserKey());
            s.setString(8, run.getDeliveryMode());
            s.setString(9, run.getState().wire());
            s.setString(10, run.getInputText());
            s.setString(11, run.getInputJson());
            s.setString(12, run.getTurnId());
            s.setInt(13, run.getAttempt());
            s.setInt(14, run.getCrashes());
            s.setString(15, run.getClaimedBy());
            s.setString(16, run.getPayloadHash());
            s.setLong(17, run.getCreatedAt());
            Statements.setLong(s, 18, run.getStartedAt());
            s.setLong(19, run.getUpdatedAt());
            s.setString(20, run.getKind().wire());
        }, "storing run " + run.getRunId());
    }

    /** Inserts a new queued run of no turn, with text input only (a delegated call's). */
    public void insertQueued(String runId, long threadId, long seq, String userKey, String threadKey, String source,
            RunKind kind, String inputText, String payloadHash, long now) {
        insert(new RunRecord(runId, threadId, seq, userKey, threadKey, source, kind, null, "followUp", inputText,
                payloadHash, now));
    }

    /** The lane's oldest unfinished run after {@code afterSeq} (thread seqs start at 1), or null. */
    public LaneRun head(long threadId, long afterSeq) {
        List<LaneRun> runs = unfinished(HEAD, threadId, afterSeq);
        return runs.isEmpty() ? null : runs.get(0);
    }

    /** How many unfinished runs the lane holds (an index range of the partial index on unfinished runs). */
    public int unfinishedCount(long threadId) {
        return statements.query(UNFINISHED_COUNT, s -> s.setLong(1, threadId), rs -> rs.getInt(1),
                "counting the unfinished runs of thread " + threadId).get(0);
    }

    /** The lane's two oldest unfinished runs: the head and the run behind it, for a finish and its chained claim. */
    public List<LaneRun> headPair(long threadId) {
        return unfinished(HEAD_PAIR, threadId, 0);
    }

    /** The lane's unfinished runs in FIFO order. */
    public List<LaneRun> unfinished(long threadId) {
        return unfinished(UNFINISHED, threadId, 0);
    }

    /**
     * Starts a new attempt of {@code run} for {@code owner}, from the state it was read in; with
     * {@code crashed}, the attempt it replaces is counted as a crash. Returns the run as started.
     */
    public LaneRun start(LaneRun run, String owner, boolean crashed, long now) {
        statements.updateOne(START, s -> {
            s.setInt(1, crashed ? 1 : 0);
            s.setString(2, owner);
            s.setLong(3, now);
            s.setLong(4, now);
            s.setString(5, run.runId());
            s.setString(6, run.state().wire());
        }, "starting run " + run.runId() + " from " + run.state().wire());
        return run.moved(RunState.EXECUTING, run.attempt() + 1, run.crashes() + (crashed ? 1 : 0), owner);
    }

    /** Ends the unfinished run as {@code end} says. */
    public void end(String runId, RunEnd end, long now) {
        statements.updateOne(END, s -> {
            s.setString(1, end.state().wire());
            s.setString(2, end.outputJson());
            s.setString(3, end.errorCode());
            s.setString(4, end.errorMessage());
            s.setLong(5, now);
            s.setLong(6, now);
            s.setString(7, runId);
        }, "ending run " + runId);
    }

    /** Queues the executing attempt again (handed back, not crashed); false when it no longer executes. */
    public boolean requeue(String runId, int attempt, long now) {
        return statements.update(REQUEUE, s -> {
            s.setLong(1, now);
            s.setString(2, runId);
            s.setInt(3, attempt);
        }, "queueing run " + runId + " again") == 1;
    }

    private List<LaneRun> unfinished(String sql, long threadId, long afterSeq) {
        return statements.query(sql, s -> {
            s.setLong(1, threadId);
            s.setLong(2, afterSeq);
        }, LaneRows::laneRun, "reading the lane of thread " + threadId);
    }

    private static LaneRun laneRun(ResultSet rs) throws SQLException {
        return new LaneRun(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getString(5),
                rs.getString(6), RunState.fromWire(rs.getString(7)), rs.getString(8), rs.getString(9), rs.getString(10),
                rs.getInt(11), rs.getInt(12), rs.getString(13), rs.getLong(14), "active".equals(rs.getString(15)),
                rs.getLong(16), rs.getString(17), rs.getInt(18), rs.getString(19), RunKind.fromWire(rs.getString(20)));
    }

    private static Lane lane(ResultSet rs) throws SQLException {
        return new Lane(rs.getLong(1), rs.getString(2), Statements.getLong(rs, 3), rs.getString(4),
                Statements.getInt(rs, 5), rs.getLong(6), rs.getLong(7),
                rs.getString(8) == null && rs.getString(9) == null && rs.getString(10) == null && rs.getString(11) == null
                        ? ThreadRuntime.DEFAULT
                        : new ThreadRuntime(rs.getString(8), rs.getString(9), rs.getString(10), rs.getString(11)));
    }

}
