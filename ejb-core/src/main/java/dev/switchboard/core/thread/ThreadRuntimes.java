package dev.switchboard.core.thread;

import dev.switchboard.core.engine.EngineSelector;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/**
 * Threads' runtime choices (jagc's thread runtime endpoints): read, and changed one field at a
 * time under the thread's row lock, so two changes at once keep both. A change applies to the
 * thread's runs claimed after it (a run's claim reads the choice with its lane's lock). Choosing
 * creates the thread when it does not exist yet; reading does not.
 */
@Stateless
public class ThreadRuntimes {

    @Inject
    ThreadRepository repository;

    @Inject
    EngineSelector engines;

    @Inject
    ThreadDirectory threads;

    /** The thread's runtime; the instance's defaults for a thread that does not exist (yet). */
    public RuntimeView view(String userKey, String threadKey) {
        ThreadRuntime chosen = repository.runtime(userKey, threadKey).orElse(ThreadRuntime.DEFAULT);
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
        ThreadRuntime current = repository.lockRuntime(threadId).orElse(ThreadRuntime.DEFAULT);
        ThreadRuntime next = choose.apply(current);
        repository.writeRuntime(threadId, next);
        return RuntimeView.of(threadKey, next, engines.engine(), engines.selectable());
    }
}
