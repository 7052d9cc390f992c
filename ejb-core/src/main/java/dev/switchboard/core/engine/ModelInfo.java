package dev.switchboard.core.engine;

/**
 * A model a thread may choose: its id on its engine, a display name, and whether it can think
 * (then a thread's thinking level is passed to it).
 */
public record ModelInfo(String modelId, String name, boolean reasoning) {
}
