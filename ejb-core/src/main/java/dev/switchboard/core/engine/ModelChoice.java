package dev.switchboard.core.engine;

/**
 * The model and thinking level a run's thread chose (jagc's {@code PUT /v1/threads/{key}/model}
 * and {@code /thinking}); each null when it chose none, and the engine uses its own default.
 */
public record ModelChoice(String modelId, String thinkingLevel) {

    public static final ModelChoice NONE = new ModelChoice(null, null);

    /** The thinking levels jagc knows, in order. */
    public static final java.util.List<String> THINKING_LEVELS = java.util.List.of("off", "minimal", "low", "medium",
            "high", "xhigh");

    /** Whether the thread asked for thinking (a level other than off). */
    public boolean thinks() {
        return thinkingLevel != null && !"off".equals(thinkingLevel);
    }
}
