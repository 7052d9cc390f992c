package dev.switchboard.core.thread;

import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
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
 * The {@code threads} rows (a thread is made with its lane, {@link Lanes#open}), in the caller's
 * transaction: the entity reads pages and a thread; the statements create a thread and hold its
 * runtime choice and workspace line. Each statement is keyed by one thread, except the
 * sweeps of workspaces. A thread's runs are the lane's to read ({@code RunReads}).
 */
@Store("threads")
@ApplicationScoped
public class ThreadRepository {

    /*
     * A thread's id is the sequence's next value, one per thread. The sequence steps by 50 (V1: the
     * block the entity once preallocated), so ids are sparse; a value taken here is never inside a block an
     * earlier version's instance may still be handing out, whichever end of its value it counted from.
     */
    private static final String CREATE = "INSERT INTO threads (id, user_key, thread_key, created_at, is_internal, engine)"
            + " VALUES (nextval('thread_id_seq'), ?, ?, ?, ?, ?)";
    private static final String RUNTIME = "SELECT engine, model_id, thinking_level FROM threads"
            + " WHERE user_key = ? AND thread_key = ?";
    private static final String LOCK_RUNTIME = "SELECT engine, model_id, thinking_level FROM threads WHERE id = ? FOR UPDATE";
    private static final String WRITE_RUNTIME = "UPDATE threads SET engine = ?, model_id = ?, thinking_level = ? WHERE id = ?";
    private static final String WORKSPACE_BY_KEY = "SELECT workspace_head FROM threads WHERE user_key = ? AND thread_key = ?";
    private static final String ENABLE_WORKSPACE = "UPDATE threads SET workspace_head = '' WHERE id = ? AND workspace_head IS NULL";
    private static final String WORKSPACE = "SELECT workspace_head FROM threads WHERE id = ?";
    private static final String MOVE_WORKSPACE = "UPDATE threads SET workspace_head = ? WHERE id = ?";
    private static final String WITH_WORKSPACE = "SELECT id FROM threads WHERE workspace_head IS NOT NULL ORDER BY id";
    /* Retention: the threads with a workspace made before the cutoff, by id after the last one looked at. */
    private static final String WORKSPACES_BEFORE = "SELECT id FROM threads WHERE id > ? AND workspace_head IS NOT NULL"
            + " AND created_at < ? ORDER BY id FETCH FIRST ? ROWS ONLY";
    private static final String RESET_WORKSPACE = "UPDATE threads SET workspace_head = '' WHERE id = ?"
            + " AND workspace_head IS NOT NULL";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    Statements statements;

    @Inject
    Lanes lanes;

    /** Built outside the container (the in-process tests) for its statements alone: no entity is read. */
    public static ThreadRepository ofStatements(Statements statements) {
        return ofStatements(statements, null);
    }

    /** As {@link #ofStatements(Statements)}, making threads with their lanes in {@code lanes}. */
    public static ThreadRepository ofStatements(Statements statements, Lanes lanes) {
        ThreadRepository repository = new ThreadRepository();
        repository.statements = statements;
        repository.lanes = lanes;
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

    /** A new thread whose runs take {@code engine} (null: the instance's), in one insert, with its lane; its id. */
    public long create(String userKey, String threadKey, String engine, long now) {
        long id = statements.insertReturningKey(CREATE, "id", s -> {
            s.setString(1, userKey);
            s.setString(2, threadKey);
            s.setLong(3, now);
            s.setBoolean(4, ThreadKinds.isInternal(userKey, threadKey));
            s.setString(5, engine);
        }, "creating thread " + threadKey);
        lanes.open(id);
        return id;
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

    /** Up to {@code limit} threads with a workspace made before {@code cutoff}, ids above {@code afterId}, by id. */
    public List<Long> workspacesMadeBefore(long cutoff, long afterId, int limit) {
        return statements.query(WORKSPACES_BEFORE, s -> {
            s.setLong(1, afterId);
            s.setLong(2, cutoff);
            s.setInt(3, limit);
        }, rs -> rs.getLong(1), "finding workspaces made before " + cutoff);
    }

    /** Moves the thread's workspace line back to its start; false when it has no workspace. */
    public boolean resetWorkspace(long threadId) {
        return statements.update(RESET_WORKSPACE, s -> s.setLong(1, threadId),
                "resetting the workspace of thread " + threadId) == 1;
    }
}
