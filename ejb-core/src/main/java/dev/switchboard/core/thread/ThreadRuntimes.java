package dev.switchboard.core.thread;

import dev.switchboard.core.engine.EngineSelector;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Threads' runtime choices (jagc's thread runtime endpoints): read, and changed one field at a
 * time under the thread's row lock, so two changes at once keep both. A change applies to the
 * thread's runs claimed after it (a run's claim reads the choice with its lane's lock). Choosing
 * creates the thread when it does not exist yet; reading does not.
 */
@Store("threads")
@Stateless
public class ThreadRuntimes {

    private static final String READ = "SELECT engine, model_id, thinking_level FROM threads"
            + " WHERE user_key = ? AND thread_key = ?";
    private static final String LOCK = "SELECT engine, model_id, thinking_level FROM threads WHERE id = ? FOR UPDATE";
    private static final String WRITE = "UPDATE threads SET engine = ?, model_id = ?, thinking_level = ? WHERE id = ?";

    @Inject
    Statements statements;

    @Inject
    EngineSelector engines;

    @Inject
    ThreadDirectory threads;

    /** The thread's runtime; the instance's defaults for a thread that does not exist (yet). */
    public RuntimeView view(String userKey, String threadKey) {
        ThreadRuntime chosen = statements.query(READ, s -> {
            s.setString(1, userKey);
            s.setString(2, threadKey);
        }, ThreadRuntimes::read, "reading the runtime of thread " + threadKey).stream().findFirst()
                .orElse(ThreadRuntime.DEFAULT);
        return RuntimeView.of(threadKey, chosen, engines.engine(), engines.selectable());
    }

    /** @throws RuntimeChoiceException when this instance has no such model */
    public RuntimeView chooseModel(String userKey, String threadKey, String provider, String modelId) {
        return change(userKey, threadKey, current -> RuntimeView.choosingModel(current, provider, modelId,
                engines.selectable()));
    }

    /** @throws RuntimeChoiceException when the level is not one of jagc's */
    public RuntimeView chooseThinking(String userKey, String threadKey, String level) {
        return change(userKey, threadKey, current -> RuntimeView.choosingThinking(current, level));
    }

    private RuntimeView change(String userKey, String threadKey, java.util.function.UnaryOperator<ThreadRuntime> choose) {
        long threadId = threads.idOf(userKey, threadKey);
        ThreadRuntime current = Optional.ofNullable(statements.query(LOCK, s -> s.setLong(1, threadId), ThreadRuntimes::read,
                "locking thread " + threadKey).stream().findFirst().orElse(null)).orElse(ThreadRuntime.DEFAULT);
        ThreadRuntime next = choose.apply(current);
        statements.updateOne(WRITE, s -> {
            s.setString(1, next.engine());
            s.setString(2, next.modelId());
            s.setString(3, next.thinkingLevel());
            s.setLong(4, threadId);
        }, "choosing the runtime of thread " + threadKey);
        return RuntimeView.of(threadKey, next, engines.engine(), engines.selectable());
    }

    private static ThreadRuntime read(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ThreadRuntime(rs.getString(1), rs.getString(2), rs.getString(3));
    }
}
