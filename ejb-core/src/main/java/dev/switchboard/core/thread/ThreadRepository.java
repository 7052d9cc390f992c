package dev.switchboard.core.thread;

import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The {@code threads} rows (a thread is made with its lane, {@link Lanes#open}), and the
 * reads of runs off the per-run path, in the caller's transaction: the entities read pages, a thread
 * or a run and create a thread; its statements hold a thread's runtime choice and workspace line.
 * Each statement is keyed by one thread (or one run, one turn), except the idle-workspace sweeps.
 */
@Store({"threads", "runs"})
@ApplicationScoped
public class ThreadRepository {

    /*
     * Each batch of aged runs starts after the last one (a keyset on the aging index): the index
     * entries of the rows a pass has deleted stay in it until a vacuum, and a batch that started from
     * the oldest again would walk every one of them — on ten million runs that made the pruning cost
     * more than the runs it kept up with. A row with the same created_at as the last of a batch waits
     * for the next pass.
     */
    private static final String AGED_RUNS = "SELECT run_id, turn_id, thread_id, created_at FROM runs"
            + " WHERE created_at > ? AND created_at < ? AND kind = ? AND state IN ('succeeded', 'failed')"
            + " AND finished_at < ? ORDER BY created_at LIMIT ?";
    private static final String RUNTIME = "SELECT engine, model_id, thinking_level FROM threads"
            + " WHERE user_key = ? AND thread_key = ?";
    private static final String LOCK_RUNTIME = "SELECT engine, model_id, thinking_level FROM threads WHERE id = ? FOR UPDATE";
    private static final String WRITE_RUNTIME = "UPDATE threads SET engine = ?, model_id = ?, thinking_level = ? WHERE id = ?";
    private static final String RUN_PLACE = "SELECT thread_id, state, error_code FROM runs WHERE run_id = ? AND user_key = ?";
    /* Outputs that hold an object under a key (a run that worked in the workspace: its output's "workspace"). */
    private static final String SUCCEEDED_OUTPUTS_OF_TURN = "SELECT output_json FROM runs WHERE turn_id = ?"
            + " AND state = 'succeeded' AND output_json LIKE ? ORDER BY thread_seq";
    private static final String OUTPUTS_OF_THREAD = "SELECT output_json FROM runs WHERE thread_id = ? AND output_json LIKE ?";
    private static final String WORKSPACE_BY_KEY = "SELECT workspace_head FROM threads WHERE user_key = ? AND thread_key = ?";
    private static final String ENABLE_WORKSPACE = "UPDATE threads SET workspace_head = '' WHERE id = ? AND workspace_head IS NULL";
    private static final String WORKSPACE = "SELECT workspace_head FROM threads WHERE id = ?";
    private static final String MOVE_WORKSPACE = "UPDATE threads SET workspace_head = ? WHERE id = ?";
    private static final String WITH_WORKSPACE = "SELECT id FROM threads WHERE workspace_head IS NOT NULL ORDER BY id";
    /*
     * Retention: a thread with a workspace that has had no run since the cutoff (found through the
     * (thread_id, thread_seq) unique index), by id after the last one looked at.
     */
    private static final String IDLE_WORKSPACES = "SELECT t.id FROM threads t WHERE t.id > ?"
            + " AND t.workspace_head IS NOT NULL AND t.created_at < ?"
            + " AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.id AND r.created_at >= ?)"
            + " ORDER BY t.id LIMIT ?";
    private static final String RESET_IDLE = "UPDATE threads SET workspace_head = '' WHERE id = ?"
            + " AND workspace_head IS NOT NULL"
            + " AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = threads.id AND r.created_at >= ?)";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    Statements statements;

    @Inject
    Lanes lanes;

    /** Built outside the container (the in-process tests) for its statements alone: no entity is read. */
    public static ThreadRepository ofStatements(Statements statements) {
        ThreadRepository repository = new ThreadRepository();
        repository.statements = statements;
        return repository;
    }

    // --- threads ---

    /** The user's thread {@code threadKey} as a list shows it; empty when there is none. */
    public Optional<ThreadRow> row(String userKey, String threadKey) {
        return thread(userKey, threadKey).map(t -> new ThreadRow(t.getId(), t.getThreadKey(), t.getCreatedAt(), t.isInternal()));
    }

    /** Whose thread {@code id} is, and its key; empty when there is no such thread. */
    public Optional<Key> keyOf(long id) {
        return Optional.ofNullable(em.find(ThreadRecord.class, id)).map(t -> new Key(t.getUserKey(), t.getThreadKey()));
    }

    /** A thread's name: its user and its key. */
    public record Key(String userKey, String threadKey) {
    }

    /** The id of the user's thread {@code threadKey}; empty when there is none. */
    public Optional<Long> idOf(String userKey, String threadKey) {
        return thread(userKey, threadKey).map(ThreadRecord::getId);
    }

    private Optional<ThreadRecord> thread(String userKey, String threadKey) {
        return em.createNamedQuery(ThreadRecord.BY_KEY, ThreadRecord.class)
                .setParameter("userKey", userKey)
                .setParameter("threadKey", threadKey)
                .getResultStream().findFirst();
    }

    /**
     * Up to {@code limit} of the user's threads with keys after {@code after}, by key; internal ones
     * only when {@code includeInternal}. A projection, not entities: a search reads thousands of rows
     * and none of them may join the persistence context. Either form is one range of an index:
     * {@code (user_key, is_internal, thread_key)} without internal threads, the unique
     * {@code (user_key, thread_key)} with them.
     */
    public List<ThreadRow> listed(String userKey, String after, boolean includeInternal, int limit) {
        String query = "SELECT t.id, t.threadKey, t.createdAt, t.internal FROM ThreadRecord t WHERE t.userKey = :userKey"
                + (includeInternal ? "" : " AND t.internal = FALSE") + " AND t.threadKey > :after ORDER BY t.threadKey";
        return em.createQuery(query, Object[].class)
                .setParameter("userKey", userKey)
                .setParameter("after", after == null ? "" : after)
                .setMaxResults(limit)
                .getResultStream()
                .map(r -> new ThreadRow((Long) r[0], (String) r[1], (Long) r[2], (Boolean) r[3]))
                .toList();
    }

    /** Creates the thread, marked internal or not by {@link ThreadKinds}; its id. */
    public long create(String userKey, String threadKey, long now) {
        return create(userKey, threadKey, null, now);
    }

    /** A new thread whose runs take {@code engine} (null: the instance's), in one insert; its id. */
    public long create(String userKey, String threadKey, String engine, long now) {
        ThreadRecord created = new ThreadRecord(userKey, threadKey, now, ThreadKinds.isInternal(userKey, threadKey), engine);
        em.persist(created);
        em.flush();
        lanes.open(created.getId());
        return created.getId();
    }

    /** The runtime the user's thread {@code threadKey} chose; empty when there is no such thread. */
    public Optional<ThreadRuntime> runtime(String userKey, String threadKey) {
        return statements.query(RUNTIME, s -> {
            s.setString(1, userKey);
            s.setString(2, threadKey);
        }, ThreadRepository::runtime, "reading the runtime of thread " + threadKey).stream().findFirst();
    }

    /** Thread {@code threadId}'s runtime, its row locked until the transaction ends; empty when there is no such thread. */
    public Optional<ThreadRuntime> lockRuntime(long threadId) {
        return statements.query(LOCK_RUNTIME, s -> s.setLong(1, threadId), ThreadRepository::runtime,
                "locking thread " + threadId).stream().findFirst();
    }

    public void writeRuntime(long threadId, ThreadRuntime runtime) {
        statements.updateOne(WRITE_RUNTIME, s -> {
            s.setString(1, runtime.engine());
            s.setString(2, runtime.modelId());
            s.setString(3, runtime.thinkingLevel());
            s.setLong(4, threadId);
        }, "choosing the runtime of thread " + threadId);
    }

    private static ThreadRuntime runtime(ResultSet rs) throws SQLException {
        return new ThreadRuntime(rs.getString(1), rs.getString(2), rs.getString(3));
    }

    /** Where the user's thread's workspace line is ({@code ""} at its start); empty without a workspace or a thread. */
    public Optional<String> workspaceHead(String userKey, String threadKey) {
        return statements.query(WORKSPACE_BY_KEY, s -> {
            s.setString(1, userKey);
            s.setString(2, threadKey);
        }, rs -> Optional.ofNullable(rs.getString(1)), "reading the workspace of thread " + threadKey).stream()
                .findFirst().flatMap(h -> h);
    }

    /** Where thread {@code threadId}'s workspace line is; empty without a workspace. */
    public Optional<String> workspaceHead(long threadId) {
        return statements.query(WORKSPACE, s -> s.setLong(1, threadId), rs -> Optional.ofNullable(rs.getString(1)),
                "reading the workspace of thread " + threadId).stream().findFirst().flatMap(h -> h);
    }

    /** Gives the thread a workspace line at its start, unless it has one; the update locks the thread's row. */
    public void enableWorkspace(long threadId) {
        statements.update(ENABLE_WORKSPACE, s -> s.setLong(1, threadId), "giving thread " + threadId + " a workspace");
    }

    public void moveWorkspace(long threadId, String head) {
        statements.updateOne(MOVE_WORKSPACE, s -> {
            s.setString(1, head);
            s.setLong(2, threadId);
        }, "moving the workspace line of thread " + threadId);
    }

    /** The threads that have a workspace, by id. */
    public List<Long> withWorkspace() {
        return statements.query(WITH_WORKSPACE, s -> { }, rs -> rs.getLong(1), "listing the threads with a workspace");
    }

    /** Up to {@code limit} threads with a workspace and no run since {@code cutoff}, ids above {@code afterId}. */
    public List<Long> idleWorkspaces(long cutoff, long afterId, int limit) {
        return statements.query(IDLE_WORKSPACES, s -> {
            s.setLong(1, afterId);
            s.setLong(2, cutoff);
            s.setLong(3, cutoff);
            s.setInt(4, limit);
        }, rs -> rs.getLong(1), "finding idle workspaces");
    }

    /** Moves an idle thread's workspace line back to its start; false when a run came since {@code cutoff}. */
    public boolean resetIdleWorkspace(long threadId, long cutoff) {
        return statements.update(RESET_IDLE, s -> {
            s.setLong(1, threadId);
            s.setLong(2, cutoff);
        }, "resetting the workspace of thread " + threadId) == 1;
    }

    // --- runs ---

    /** A finished run old enough to go: its turn and thread (its workspace record lives under the thread). */
    public record AgedRun(String runId, String turnId, long threadId, long createdAt) {
    }

    /**
     * Retention: up to {@code limit} finished runs of {@code kind} created after {@code after} and
     * created and finished before {@code cutoff}, oldest first — through the index that only ages (a
     * run's {@code created_at}), never the unfinished runs' partial indexes the hot path uses.
     */
    public List<AgedRun> agedRuns(RunKind kind, long after, long cutoff, int limit) {
        return statements.query(AGED_RUNS, s -> {
            s.setLong(1, after);
            s.setLong(2, cutoff);
            s.setString(3, kind.wire());
            s.setLong(4, cutoff);
            s.setInt(5, limit);
        }, rs -> new AgedRun(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)),
                "finding aged runs of kind " + kind.wire());
    }

    /** Where the user's run {@code runId} ran and how it stands; empty when the user has no such run. */
    public Optional<RunPlace> runPlace(String userKey, String runId) {
        return statements.query(RUN_PLACE, s -> {
            s.setString(1, runId);
            s.setString(2, userKey);
        }, rs -> new RunPlace(rs.getLong(1), rs.getString(2), rs.getString(3)), "reading run " + runId).stream().findFirst();
    }

    /** A run's thread, its state and its error code (null without one). */
    public record RunPlace(long threadId, String state, String errorCode) {
    }

    /** The outputs of turn {@code turnId}'s succeeded runs that hold an object under {@code key}, in lane order. */
    public List<String> succeededOutputsOfTurn(String turnId, String key) {
        return statements.query(SUCCEEDED_OUTPUTS_OF_TURN, s -> {
            s.setString(1, turnId);
            s.setString(2, objectUnder(key));
        }, rs -> rs.getString(1), "reading the outputs of turn " + turnId);
    }

    /** The outputs of every run of thread {@code threadId} that hold an object under {@code key}, whatever became of the run. */
    public List<String> outputsOfThread(long threadId, String key) {
        return statements.query(OUTPUTS_OF_THREAD, s -> {
            s.setLong(1, threadId);
            s.setString(2, objectUnder(key));
        }, rs -> rs.getString(1), "reading the outputs of thread " + threadId);
    }

    /** The LIKE pattern of a JSON text holding an object under {@code key} (as our JSON writes it: no blank). */
    private static String objectUnder(String key) {
        return "%\"" + key + "\":{%";
    }

    private RunRecord run(String runId) {
        return em.find(RunRecord.class, runId);
    }

    /** A run's row as a plain view, for a class that is no store; empty when there is no such run. */
    public Optional<StoredRun> storedRun(String runId) {
        return runId == null ? Optional.empty() : Optional.ofNullable(run(runId)).map(ThreadRepository::stored);
    }

    /**
     * A run's row as the classes that show runs read it (epoch ms times, null when not yet): its
     * place, whom it is for, its input, output and end, its attempts and its turn (null without one).
     */
    public record StoredRun(String runId, long threadId, long threadSeq, String userKey, String threadKey, String source,
            String deliveryMode, RunState state, String inputText, String inputJson, String outputJson,
            String errorMessage, String errorCode, int attempt, int crashes, long createdAt, Long startedAt,
            Long finishedAt, String turnId) {
    }

    private static StoredRun stored(RunRecord r) {
        return new StoredRun(r.getRunId(), r.getThreadId(), r.getThreadSeq(), r.getUserKey(), r.getThreadKey(), r.getSource(),
                r.getDeliveryMode(), r.getState(), r.getInputText(), r.getInputJson(), r.getOutputJson(),
                r.getErrorMessage(), r.getErrorCode(), r.getAttempt(), r.getCrashes(), r.getCreatedAt(), r.getStartedAt(),
                r.getFinishedAt(), r.getTurnId());
    }

    /** What run {@code runId} answered, when it succeeded. */
    public Optional<String> outputOf(String runId) {
        return storedRun(runId).filter(run -> run.state() == RunState.SUCCEEDED).map(StoredRun::outputJson);
    }

    /** The lane's runs after {@code afterSeq} in lane order, up to {@code limit}. */
    public List<StoredRun> runsAfter(long threadId, long afterSeq, int limit) {
        return em.createNamedQuery(RunRecord.BY_THREAD_PAGE, RunRecord.class)
                .setParameter("threadId", threadId)
                .setParameter("afterSeq", afterSeq)
                .setMaxResults(limit)
                .getResultStream().map(ThreadRepository::stored).toList();
    }

    /** The turn's runs in lane order. */
    public List<StoredRun> runsOf(String turnId) {
        return em.createNamedQuery(RunRecord.BY_TURN, RunRecord.class)
                .setParameter("turnId", turnId)
                .getResultStream().map(ThreadRepository::stored).toList();
    }
}
