package dev.switchboard.core.thread;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.ModelChoice;
import dev.switchboard.core.engine.ModelInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A thread's runtime as jagc's {@code GET /v1/threads/{key}/runtime} shows it: the engine
 * (jagc's provider) and model its turns run with, the thinking level in effect, whether the model
 * can think and the levels it accepts. Resolved from the thread's choice and the instance's
 * engines: what it did not choose is the instance's default; a model that cannot think is at
 * {@code off} whatever was chosen. Plain: unit tests drive it.
 *
 * @param modelName null when the model is not (or no longer) in the engine's list
 */
public record RuntimeView(String threadKey, String provider, String modelId, String modelName, String thinkingLevel,
        boolean supportsThinking, List<String> availableThinkingLevels) {

    public static RuntimeView of(String threadKey, ThreadRuntime chosen, AgentEngine instanceEngine,
            Map<String, AgentEngine> engines) {
        AgentEngine engine = chosen.engine() == null ? instanceEngine
                : engines.getOrDefault(chosen.engine(), null);
        String provider = chosen.engine() == null ? instanceEngine.name() : chosen.engine();
        String modelId = chosen.modelId() != null ? chosen.modelId() : engine == null ? null : engine.defaultModel();
        Optional<ModelInfo> model = model(engine, modelId);
        boolean thinks = model.map(ModelInfo::reasoning).orElse(false);
        String level = thinks && chosen.thinkingLevel() != null ? chosen.thinkingLevel() : "off";
        return new RuntimeView(threadKey, provider, modelId, model.map(ModelInfo::name).orElse(null), level, thinks,
                thinks ? ModelChoice.THINKING_LEVELS : List.of("off"));
    }

    /** The model {@code modelId} of {@code engine}, if it offers it. */
    static Optional<ModelInfo> model(AgentEngine engine, String modelId) {
        return engine == null ? Optional.empty()
                : engine.models().stream().filter(m -> m.modelId().equals(modelId)).findFirst();
    }

    /**
     * The choice of {@code provider}/{@code modelId}, keeping the thread's thinking level.
     *
     * @throws RuntimeChoiceException with jagc's message when the instance has no such model
     */
    public static ThreadRuntime choosingModel(ThreadRuntime current, String provider, String modelId,
            Map<String, AgentEngine> engines) {
        if (model(engines.get(provider), modelId).isEmpty()) {
            throw new RuntimeChoiceException(RuntimeChoiceException.Choice.MODEL,
                    "model " + provider + "/" + modelId + " is not available in registry");
        }
        return new ThreadRuntime(provider, modelId, current.thinkingLevel());
    }

    /** The choice of a thinking level; the level must be one of {@link ModelChoice#THINKING_LEVELS}. */
    public static ThreadRuntime choosingThinking(ThreadRuntime current, String level) {
        if (!ModelChoice.THINKING_LEVELS.contains(level)) {
            throw new RuntimeChoiceException(RuntimeChoiceException.Choice.THINKING_LEVEL,
                    "thinking level must be one of: " + String.join(", ", ModelChoice.THINKING_LEVELS));
        }
        return new ThreadRuntime(current.engine(), current.modelId(), level);
    }
}
