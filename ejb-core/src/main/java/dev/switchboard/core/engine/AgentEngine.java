package dev.switchboard.core.engine;

import jakarta.json.JsonObject;
import java.util.concurrent.CompletionStage;

/**
 * Executes one run. Implementations complete the stage with the run's output object, or
 * exceptionally: the exception's message becomes the run's error. They must not block the
 * calling thread for the duration of the work, and should stop early when
 * {@link EngineRequest#cancelled()} turns true.
 */
public interface AgentEngine {

    String name();

    CompletionStage<JsonObject> execute(EngineRequest request);
}
