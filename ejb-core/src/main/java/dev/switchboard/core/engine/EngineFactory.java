package dev.switchboard.core.engine;

/**
 * Makes one kind of engine. An implementation that is a CDI bean in this module (for example
 * {@code @ApplicationScoped}) is found by {@link EngineSelector}, which asks the one whose
 * {@link #name()} is configured as {@code switchboard.engine} for the instance's engine, once,
 * at start-up. Its own settings come from MicroProfile Config like any bean's; what every engine
 * may share is in {@link EngineServices}. docs/engines.md walks through writing one.
 */
public interface EngineFactory {

    /** What {@code switchboard.engine} names to choose this engine; unique among the factories. */
    String name();

    AgentEngine create(EngineServices services);

    /**
     * Whether threads may choose this engine beside the instance's own: true when it is configured
     * well enough to run (an engine that needs settings it lacks says false, and is then made
     * only when it is the instance's engine, where missing settings stop the start).
     */
    default boolean selectable() {
        return true;
    }
}
