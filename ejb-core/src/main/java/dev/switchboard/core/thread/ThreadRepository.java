package dev.switchboard.core.thread;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The reads and locks of threads, their lanes' runs and their turns through the entities, in the
 * caller's transaction — everything off the per-run path, which is the lane's. Each statement is
 * keyed by one thread (or one run, one turn).
 */
@Store({"threads", "runs"})
@ApplicationScoped
public class ThreadRepository {

    private static final String RUNTIME = "SELECT engine, model_id, thinking_level FROM threads"
            + " WHERE user_key = ? AND thread_key = ?";
    private static final String LOCK_RUNTIME = "SELECT engine, model_id, thinking_level FROM threads WHERE id = ? FOR UPDATE";
    private static final String WRITE_RUNTIME = "UPDATE threads SET engine = ?, model_id = ?, thinking_level = ? WHERE id = ?";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @jakarta.inject.Inject
    Statements statements;

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

    public Optional<ThreadRecord> thread(String userKey, String threadKey) {
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

    private static ThreadRuntime runtime(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ThreadRuntime(rs.getString(1), rs.getString(2), rs.getString(3));
    }

    // --- runs ---

    public RunRecord run(String runId) {
        return em.find(RunRecord.class, runId);
    }

    /** A run's turn and state as the wire names it ({@code queued}, {@code failed}…), for a class that is no store; empty when there is no such run. */
    public Optional<RunFacts> facts(String runId) {
        RunRecord run = runId == null ? null : run(runId);
        return run == null ? Optional.empty() : Optional.of(new RunFacts(run.getTurnId(), run.getState().wire()));
    }

    /** What a class that is no store may know of a run: its turn (null without one) and its state's wire name. */
    public record RunFacts(String turnId, String state) {
    }

    /** Which of {@code runIds} have ended (succeeded or failed): one statement for all of them. */
    @SuppressWarnings("unchecked")
    public Set<String> ended(Collection<String> runIds) {
        if (runIds.isEmpty()) {
            return Set.of();
        }
        var query = em.createNativeQuery("SELECT run_id FROM runs WHERE state IN ('succeeded', 'failed') AND run_id IN ("
                + Statements.placeholders(runIds.size()) + ")");
        int i = 1;
        for (String id : runIds) {
            query.setParameter(i++, id);
        }
        return new HashSet<>((List<String>) query.getResultList());
    }

    /** What run {@code runId} answered, when it succeeded. */
    public Optional<String> outputOf(String runId) {
        RunRecord run = run(runId);
        return run == null || run.getState() != RunState.SUCCEEDED ? Optional.empty()
                : Optional.ofNullable(run.getOutputJson());
    }

    /** The lane's runs after {@code afterSeq} in lane order, up to {@code limit}. */
    public List<RunRecord> runsAfter(long threadId, long afterSeq, int limit) {
        return em.createNamedQuery(RunRecord.BY_THREAD_PAGE, RunRecord.class)
                .setParameter("threadId", threadId)
                .setParameter("afterSeq", afterSeq)
                .setMaxResults(limit)
                .getResultList();
    }

    /** The turn's runs in lane order. */
    public List<RunRecord> runsOf(String turnId) {
        return em.createNamedQuery(RunRecord.BY_TURN, RunRecord.class)
                .setParameter("turnId", turnId)
                .getResultList();
    }

    /** Writes this transaction's pending changes now (before a row that references them). */
    public void flush() {
        em.flush();
    }
}
