package dev.switchboard.core.engine;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Executes one run. Implementations complete the stage with the run's output object, or
 * exceptionally: the exception's message becomes the run's error. They must not block the
 * calling thread for the duration of the work; they must check {@link EngineRequest#cancelled()}
 * before each step that does work (a call that may no longer hold its lane's lease is cancelled,
 * and must not act), and should stop as soon as it turns true.
 */
public interface AgentEngine {

    String name();

    CompletionStage<JsonObject> execute(EngineRequest request);

    /** The model a request that names none is answered by (the engine's name when it has no models). */
    default String defaultModel() {
        return name();
    }

    /**
     * The models a thread may choose on this engine ({@code PUT /v1/threads/{key}/model}), the
     * default first; the engine's name alone when it has no models of its own.
     */
    default List<ModelInfo> models() {
        return List.of(new ModelInfo(defaultModel(), name(), false));
    }

    /** The model providers this engine calls (none for an engine that calls no model). */
    default List<ModelProvider> providers() {
        return List.of();
    }
}
