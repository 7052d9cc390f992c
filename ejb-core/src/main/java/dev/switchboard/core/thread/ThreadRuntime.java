package dev.switchboard.core.thread;

/**
 * What a thread chose to run its turns with: an engine by name, the model it asks that engine
 * for, and a thinking level; each null when the thread chose nothing (the instance's default).
 */
public record ThreadRuntime(String engine, String modelId, String thinkingLevel) {

    /** No choice: the instance's engine, its default model, thinking off. */
    public static final ThreadRuntime DEFAULT = new ThreadRuntime(null, null, null);
}
