package dev.switchboard.core.lane;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.DatabaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Every statement on the lane's rows — a lane's lease and sequence ({@code lanes}, one row per
 * thread, made with the thread), its runs' places and states — in plain JDBC, and only here: the lane's own, package-private, so that no class outside
 * the lane claims, ends or leases a run. They run in the caller's transaction (on its shared
 * connection), without the persistence context's unit of work, each statement's text fixed so the
 * data source prepares it once per connection. The features' payload columns ride along in the
 * same statements, as {@link PayloadColumns} names them, so a claim still reads its lane and its run
 * in one statement each. Every statement on the lane's path is keyed by one thread or run, except
 * the owner's sweep of its leases and the claimable lanes; the features' reads off it ({@link RunReads},
 * {@link FinishedRuns}) take lists of keys a thousand a statement, or page retention's aged runs. Statements that change a run name the state they expect, and a row that is not in
 * it fails the transaction ({@link IllegalStateException}) rather than skip a transition. Nothing
 * here caches a row.
 */
@Store({"lanes", "runs"})
@ApplicationScoped
class LaneRows {

    private static final String LANE_COLUMNS = "l.thread_id, l.lease_owner, l.lease_until, l.lease_run_id,"
            + " l.lease_attempt, l.next_seq, " + DatabaseClock.NOW_MS;
    private static final String OPEN = "INSERT INTO lanes (thread_id, next_seq) VALUES (?, 1)";
    private static final String RUN_COLUMNS = "r.run_id, r.thread_id, r.thread_seq, r.state, r.attempt, r.crashes,"
            + " r.claimed_by, r.created_at";
    /** Where the payload's columns start in a read of the lane and of a run. */
    private static final int LANE_PAYLOAD_AT = 8;
    private static final int RUN_PAYLOAD_AT = 9;
    private static final String UNFINISHED_COUNT = "SELECT count(*) FROM runs"
            + " WHERE thread_id = ? AND state IN ('queued', 'executing')";
    private static final String START = "UPDATE runs SET state = 'executing', attempt = attempt + 1,"
            + " crashes = crashes + ?, claimed_by = ?, started_at = ?, updated_at = ? WHERE run_id = ? AND state = ?";
    private static final String END = "UPDATE runs SET state = ?, output_json = ?, error_code = ?, error_message = ?,"
            + " finished_at = ?, updated_at = ? WHERE run_id = ? AND state IN ('queued', 'executing')";
    private static final String REQUEUE = "UPDATE runs SET state = 'queued', claimed_by = NULL, updated_at = ?"
            + " WHERE run_id = ? AND state = 'executing' AND attempt = ?";
    private static final String WRITE_LANE = "UPDATE lanes SET lease_owner = ?, lease_until = ?, lease_run_id = ?,"
            + " lease_attempt = ?, next_seq = ? WHERE thread_id = ?";
    private static final String ADVANCE = "UPDATE lanes SET next_seq = ? WHERE thread_id = ?";
    private static final String FORGET = "DELETE FROM runs WHERE run_id IN (%s) AND state IN ('succeeded', 'failed')";
    private static final String ENDED = "SELECT run_id, state, error_code FROM runs WHERE run_id IN (%s)"
            + " AND state IN ('succeeded', 'failed')";
    /** A run's row as the features read it off the lane's path ({@link RunRow}): where its payload starts. */
    private static final String STORED_COLUMNS = "r.run_id, r.thread_id, r.thread_seq, r.state, r.attempt, r.crashes,"
            + " r.created_at, r.started_at, r.finished_at, r.output_json, r.error_code, r.error_message";
    private static final int STORED_PAYLOAD_AT = 13;
    /* Retention: a thread with a run since the cutoff is not idle (through the (thread_id, thread_seq) unique index). */
    private static final String BUSY_SINCE = "SELECT DISTINCT thread_id FROM runs WHERE thread_id IN (%s) AND created_at >= ?";
    private static final String OUTPUTS_LIKE = "SELECT output_json FROM runs WHERE thread_id = ? AND output_json LIKE ?";
    private static final List<String> NEW_RUN_COLUMNS = List.of("run_id", "thread_id", "thread_seq", "state", "attempt",
            "crashes", "claimed_by", "created_at", "started_at", "updated_at");

    /** The lease owner of a lane whose run waits outside it (parked): no instance holds it, none may claim it. */
    static final String PARKED = "~awaiting-replies";
    /** A parked lease's end: never, by any clock (year 9999). */
    static final long PARKED_UNTIL = 253_402_300_799_999L;
    private static final String PARKED_LANE = "SELECT thread_id FROM lanes WHERE thread_id = ? AND lease_owner = '"
            + PARKED + "'";
    private static final String LEASED_TO = "SELECT thread_id FROM lanes WHERE lease_owner = ? ORDER BY thread_id";
    private static final String UNLEASED = "SELECT thread_id FROM lanes WHERE thread_id IN (%s) AND lease_owner IS NULL"
            + " ORDER BY thread_id";
    private static final String QUEUED = "SELECT count(*), coalesce(min(created_at), 0) FROM runs WHERE state = 'queued'";
    private static final String CLAIMABLE = "SELECT DISTINCT r.thread_id FROM runs r JOIN lanes l ON l.thread_id = r.thread_id"
            + " WHERE r.state = 'queued' AND (l.lease_owner IS NULL OR l.lease_until < " + DatabaseClock.NOW_MS + ")"
            + " FETCH FIRST ? ROWS ONLY";
    private static final String EXPIRED = "SELECT l.thread_id FROM lanes l WHERE l.lease_until < " + DatabaseClock.NOW_MS
            + " ORDER BY l.lease_until FETCH FIRST ? ROWS ONLY";

    @Inject
    Statements statements;

    @Inject
    PayloadColumns payloads;

    /** The statements whose text holds the payload's columns, made once from them. */
    private Texts texts;

    /** The statements made from a {@link RunKey}'s column, each made once, by statement and column. */
    private final Map<String, String> keyed = new ConcurrentHashMap<>();

    private record Texts(String lock, String lockLeasedTo, String unfinished, String head, String headPair,
            String insertRun, String blankContent, String stored) {

        static Texts of(PayloadColumns payloads) {
            /* Only the lane's row is locked: the payload's columns are read beside it (subqueries), so a
               thread's own row stays its store's to lock and no two orders of locking meet. */
            String lane = "SELECT " + LANE_COLUMNS + columns(payloads.laneColumns()) + " FROM lanes l";
            /* The states as literals: on PostgreSQL a partial index holds only unfinished runs (V7), and
               only a literal predicate lets the planner use it. */
            String unfinished = "SELECT " + RUN_COLUMNS + columns(payloads.runColumns()) + " FROM runs r"
                    + payloads.runJoins()
                    + " WHERE r.thread_id = ? AND r.state IN ('queued', 'executing') AND r.thread_seq > ? ORDER BY r.thread_seq";
            List<String> inserted = new ArrayList<>(NEW_RUN_COLUMNS);
            inserted.addAll(payloads.newRunColumns());
            return new Texts(lane + " WHERE l.thread_id = ? FOR UPDATE",
                    lane + " WHERE l.lease_owner = ? ORDER BY l.thread_id FOR UPDATE",
                    unfinished, unfinished + " FETCH FIRST 1 ROWS ONLY", unfinished + " FETCH FIRST 2 ROWS ONLY",
                    "INSERT INTO runs (" + String.join(", ", inserted) + ") VALUES ("
                            + String.join(", ", Collections.nCopies(inserted.size(), "?")) + ")",
                    "UPDATE runs SET output_json = NULL" + columns(payloads.blankContent()) + " WHERE run_id = ?",
                    "SELECT " + STORED_COLUMNS + columns(payloads.runColumns()) + " FROM runs r" + payloads.runJoins());
        }

        private static String columns(List<String> columns) {
            return columns.stream().map(c -> ", " + c).collect(Collectors.joining());
        }
    }

    private Texts texts() {
        Texts made = texts;
        if (made == null) {
            made = Texts.of(payloads); // the same text every time: a race makes it twice, harmlessly
            texts = made;
        }
        return made;
    }

    // --- lanes ---

    /** Makes the lane of a new thread: no lease, its first run numbered 1. */
    void open(long threadId) {
        statements.updateOne(OPEN, s -> s.setLong(1, threadId), "making the lane of thread " + threadId);
    }

    /** Locks the lane's row for the rest of the transaction (the lane lock); null when there is no such lane. */
    Lane lock(long threadId) {
        List<Lane> lanes = statements.query(texts().lock(), s -> s.setLong(1, threadId), this::lane, "locking thread " + threadId);
        return lanes.isEmpty() ? null : lanes.get(0);
    }

    /** Locks, in id order, every thread whose lease names {@code owner}. */
    List<Lane> lockLeasedTo(String owner) {
        return statements.query(texts().lockLeasedTo(), s -> s.setString(1, owner), this::lane,
                "locking the lanes leased to " + owner);
    }

    /** Writes the lane row as {@code lane} holds it: its lease (released when the owner is null) and next sequence number. */
    void write(Lane lane) {
        statements.updateOne(WRITE_LANE, s -> {
            s.setString(1, lane.leaseOwner());
            Statements.setLong(s, 2, lane.leaseUntil());
            s.setString(3, lane.leaseRunId());
            Statements.setInt(s, 4, lane.leaseAttempt());
            s.setLong(5, lane.nextSeq());
            s.setLong(6, lane.threadId());
        }, "writing the lane of thread " + lane.threadId());
    }

    /** Writes the lane's next sequence number alone (its lease stays as the row holds it). */
    void advance(Lane lane) {
        statements.updateOne(ADVANCE, s -> {
            s.setLong(1, lane.nextSeq());
            s.setLong(2, lane.threadId());
        }, "numbering the runs of thread " + lane.threadId());
    }

    // --- runs ---

    /** Inserts a new run (queued, or started as it is added). */
    void insert(NewRun run) {
        statements.update(texts().insertRun(), s -> {
            s.setString(1, run.runId());
            s.setLong(2, run.threadId());
            s.setLong(3, run.threadSeq());
            s.setString(4, run.state().wire());
            s.setInt(5, run.attempt());
            s.setInt(6, 0); // crashes
            s.setString(7, run.startedBy());
            s.setLong(8, run.createdAt());
            Statements.setLong(s, 9, run.startedAt());
            s.setLong(10, run.createdAt()); // updated when written
            payloads.bindNew(s, NEW_RUN_COLUMNS.size() + 1, run.payload());
        }, "storing run " + run.runId());
    }

    /** The lane's oldest unfinished run after {@code afterSeq} (thread seqs start at 1), or null. */
    LaneRun head(long threadId, long afterSeq) {
        List<LaneRun> runs = unfinished(texts().head(), threadId, afterSeq);
        return runs.isEmpty() ? null : runs.get(0);
    }

    /** How many unfinished runs the lane holds (an index range of the partial index on unfinished runs). */
    int unfinishedCount(long threadId) {
        return statements.query(UNFINISHED_COUNT, s -> s.setLong(1, threadId), rs -> rs.getInt(1),
                "counting the unfinished runs of thread " + threadId).get(0);
    }

    /** The lane's two oldest unfinished runs: the head and the run behind it, for a finish and its chained claim. */
    List<LaneRun> headPair(long threadId) {
        return unfinished(texts().headPair(), threadId, 0);
    }

    /** The lane's unfinished runs in FIFO order. */
    List<LaneRun> unfinished(long threadId) {
        return unfinished(texts().unfinished(), threadId, 0);
    }

    /**
     * Starts a new attempt of {@code run} for {@code owner}, from the state it was read in; with
     * {@code crashed}, the attempt it replaces is counted as a crash. Returns the run as started.
     */
    LaneRun start(LaneRun run, String owner, boolean crashed, long now) {
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
    void end(String runId, RunEnd end, long now) {
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
    boolean requeue(String runId, int attempt, long now) {
        return statements.update(REQUEUE, s -> {
            s.setLong(1, now);
            s.setString(2, runId);
            s.setInt(3, attempt);
        }, "queueing run " + runId + " again") == 1;
    }

    /** Deletes those of these runs that are finished; returns how many. */
    int forget(List<String> runIds) {
        return statements.updateIn(FORGET, runIds, "deleting finished runs");
    }

    /** Those of these runs that have ended (succeeded or failed), and how. */
    List<RunEnded> ended(List<String> runIds) {
        return statements.queryIn(ENDED, runIds, rs -> new RunEnded(rs.getString(1), RunState.fromWire(rs.getString(2)),
                rs.getString(3)), "reading which runs ended");
    }

    /** Blanks the run's content — its output, and its payload's as {@link PayloadColumns#blankContent} says. */
    void blankContent(String runId) {
        statements.update(texts().blankContent(), s -> s.setString(1, runId), "forgetting the content of run " + runId);
    }

    /** Whether the lane is parked, read without its lock. */
    boolean isParked(long threadId) {
        return !statements.query(PARKED_LANE, s -> s.setLong(1, threadId), rs -> rs.getLong(1), "reading lane " + threadId)
                .isEmpty();
    }

    /** Those of these threads whose lane nobody holds, in their order (each statement's by id). */
    List<Long> unleased(List<Long> threadIds) {
        return statements.queryIn(UNLEASED, threadIds, rs -> rs.getLong(1), "listing the lanes nobody holds");
    }

    /** Threads whose lease {@code owner} holds, live or expired, by id. */
    List<Long> leasedTo(String owner) {
        return statements.query(LEASED_TO, s -> s.setString(1, owner), rs -> rs.getLong(1),
                "listing the lanes leased to " + owner);
    }

    /** Runs waiting in any lane, cluster-wide, and the creation time of the oldest (0 when none). */
    QueuedRuns queued() {
        return statements.query(QUEUED, s -> { }, rs -> new QueuedRuns(rs.getLong(1), rs.getLong(2)),
                "counting the queued runs").get(0);
    }

    /** Up to {@code limit} threads with queued runs and no live lease, then ones whose lease expired. */
    List<Long> claimable(int limit) {
        List<Long> ids = new ArrayList<>();
        for (String sql : new String[] {CLAIMABLE, EXPIRED}) {
            for (long threadId : statements.query(sql, s -> s.setInt(1, limit), rs -> rs.getLong(1),
                    "listing claimable lanes")) {
                if (!ids.contains(threadId)) {
                    ids.add(threadId);
                }
            }
        }
        return ids;
    }

    // --- runs as the features read them, off the lane's path ---

    /** The run's row; null when there is none. */
    RunRow stored(String runId) {
        List<RunRow> rows = statements.query(texts().stored() + " WHERE r.run_id = ?", s -> s.setString(1, runId),
                this::runRow, "reading run " + runId);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Up to {@code limit} of the lane's runs after {@code afterSeq}, in lane order. */
    List<RunRow> storedAfter(long threadId, long afterSeq, int limit) {
        return statements.query(texts().stored() + " WHERE r.thread_id = ? AND r.thread_seq > ? ORDER BY r.thread_seq"
                + " FETCH FIRST ? ROWS ONLY", s -> {
                    s.setLong(1, threadId);
                    s.setLong(2, afterSeq);
                    s.setInt(3, limit);
                }, this::runRow, "reading the runs of thread " + threadId);
    }

    /** The runs whose {@code key} is one of {@code values}, in lane order (by thread, then number). */
    List<RunRow> storedWith(RunKey key, List<String> values) {
        String sql = keyed.computeIfAbsent("with " + key.column(), k -> texts().stored().replace("%", "%%") // a format
                + " WHERE r." + key.column() + " IN (%s) ORDER BY r.thread_id, r.thread_seq");
        List<RunRow> rows = new ArrayList<>(statements.queryIn(sql, values, this::runRow,
                "reading the runs by " + key.column()));
        rows.sort(Comparator.comparingLong(RunRow::threadId).thenComparingLong(RunRow::threadSeq)); // across statements
        return rows;
    }

    /**
     * Retention: up to {@code limit} finished runs whose {@code by} is {@code value}, created after
     * {@code after} and created and finished before {@code cutoff}, oldest first, each with its
     * {@code carried} value. Each batch starts after the last (a keyset on the aging index of
     * {@code created_at}): the index entries of the rows a pass has deleted stay in it until a vacuum,
     * and a batch that started from the oldest again would walk every one of them — on ten million
     * runs that made the pruning cost more than the runs it kept up with. A row with the same
     * {@code created_at} as the last of a batch waits for the next pass.
     */
    List<AgedRun> aged(RunKey by, String value, RunKey carried, long after, long cutoff, int limit) {
        String sql = keyed.computeIfAbsent("aged " + by.column() + " " + carried.column(),
                k -> "SELECT run_id, thread_id, created_at, " + carried.column() + " FROM runs"
                        + " WHERE created_at > ? AND created_at < ? AND " + by.column() + " = ?"
                        + " AND state IN ('succeeded', 'failed') AND finished_at < ? ORDER BY created_at LIMIT ?");
        return statements.query(sql, s -> {
            s.setLong(1, after);
            s.setLong(2, cutoff);
            s.setString(3, value);
            s.setLong(4, cutoff);
            s.setInt(5, limit);
        }, rs -> new AgedRun(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4)),
                "finding aged runs by " + by.column());
    }

    /** Those of {@code values} that some run has as its {@code key}. */
    Set<String> keysWithRuns(RunKey key, List<String> values) {
        String sql = keyed.computeIfAbsent("keys " + key.column(), k -> "SELECT DISTINCT " + key.column()
                + " FROM runs WHERE " + key.column() + " IN (%s)");
        return new HashSet<>(statements.queryIn(sql, values, rs -> rs.getString(1), "reading which keys have runs"));
    }

    /** Those of these threads with a run created at or after {@code since}. */
    Set<Long> busySince(List<Long> threadIds, long since) {
        return new HashSet<>(statements.queryIn(BUSY_SINCE, threadIds, List.of(since), rs -> rs.getLong(1),
                "finding threads with recent runs"));
    }

    /** The outputs of the thread's runs that match the LIKE pattern {@code pattern}, whatever became of the runs. */
    List<String> outputsLike(long threadId, String pattern) {
        return statements.query(OUTPUTS_LIKE, s -> {
            s.setLong(1, threadId);
            s.setString(2, pattern);
        }, rs -> rs.getString(1), "reading the outputs of thread " + threadId);
    }

    private RunRow runRow(ResultSet rs) throws SQLException {
        return new RunRow(rs.getString(1), rs.getLong(2), rs.getLong(3), RunState.fromWire(rs.getString(4)), rs.getInt(5),
                rs.getInt(6), rs.getLong(7), Statements.getLong(rs, 8), Statements.getLong(rs, 9), rs.getString(10),
                rs.getString(11), rs.getString(12), payloads.readRun(rs, STORED_PAYLOAD_AT));
    }

    /** A run started as it was added, as a read of it would return it then. */
    LaneRun added(NewRun run) {
        return new LaneRun(run.runId(), run.threadId(), run.threadSeq(), run.state(), run.attempt(), 0, run.startedBy(),
                run.createdAt(), payloads.added(run.payload(), run.createdAt()));
    }

    private List<LaneRun> unfinished(String sql, long threadId, long afterSeq) {
        return statements.query(sql, s -> {
            s.setLong(1, threadId);
            s.setLong(2, afterSeq);
        }, this::laneRun, "reading the lane of thread " + threadId);
    }

    private LaneRun laneRun(ResultSet rs) throws SQLException {
        return new LaneRun(rs.getString(1), rs.getLong(2), rs.getLong(3), RunState.fromWire(rs.getString(4)),
                rs.getInt(5), rs.getInt(6), rs.getString(7), rs.getLong(8), payloads.readRun(rs, RUN_PAYLOAD_AT));
    }

    private Lane lane(ResultSet rs) throws SQLException {
        return new Lane(rs.getLong(1), rs.getString(2), Statements.getLong(rs, 3), rs.getString(4),
                Statements.getInt(rs, 5), rs.getLong(6), rs.getLong(7), payloads.readLane(rs, LANE_PAYLOAD_AT));
    }
}
