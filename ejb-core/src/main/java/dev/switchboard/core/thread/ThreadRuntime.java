package dev.switchboard.core.thread;

/**
 * What a thread chose to run its turns with: an engine by name, the model it asks that engine
 * for, and a thinking level; each null when the thread chose nothing (the instance's default).
 * {@code workspace} is the head of the thread's workspace line ({@code ""}: its start), null when
 * the thread has no workspace of its own.
 */
public record ThreadRuntime(String engine, String modelId, String thinkingLevel, String workspace) {

    /** No choice: the instance's engine, its default model, thinking off. */
    public static final ThreadRuntime DEFAULT = new ThreadRuntime(null, null, null, null);

    /** The same choice with the thread's workspace line at {@code head}. */
    public ThreadRuntime withWorkspace(String head) {
        return new ThreadRuntime(engine, modelId, thinkingLevel, head);
    }

    /** A choice without a workspace. */
    public ThreadRuntime(String engine, String modelId, String thinkingLevel) {
        this(engine, modelId, thinkingLevel, null);
    }
}
