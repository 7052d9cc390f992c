package dev.switchboard.core.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.EngineRequest;
import dev.switchboard.core.engine.ModelChoice;
import dev.switchboard.core.engine.ModelInfo;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** How a thread's runtime choice resolves against the instance's engines, and what a choice may be. */
class RuntimeViewTest {

    private static AgentEngine engine(String name, List<ModelInfo> models) {
        return new AgentEngine() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CompletionStage<JsonObject> execute(EngineRequest request) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String defaultModel() {
                return models.get(0).modelId();
            }

            @Override
            public List<ModelInfo> models() {
                return models;
            }
        };
    }

    private static final AgentEngine ECHO = engine("echo", List.of(new ModelInfo("echo", "echo", false)));
    private static final AgentEngine MODEL = engine("openresponses", List.of(new ModelInfo("small", "small", true),
            new ModelInfo("large", "large", true)));
    private static final Map<String, AgentEngine> ENGINES = Map.of("echo", ECHO, "openresponses", MODEL);

    @Test
    void aThreadThatChoseNothingRunsOnTheInstancesEngineAndDefaultModel() {
        RuntimeView view = RuntimeView.of("t", ThreadRuntime.DEFAULT, MODEL, ENGINES);
        assertEquals("openresponses", view.provider());
        assertEquals("small", view.modelId());
        assertEquals("off", view.thinkingLevel());
        assertTrue(view.supportsThinking());
        assertEquals(ModelChoice.THINKING_LEVELS, view.availableThinkingLevels());
    }

    @Test
    void aModelThatCannotThinkIsOffWhateverWasChosen() {
        RuntimeView view = RuntimeView.of("t", new ThreadRuntime("echo", "echo", "high"), MODEL, ENGINES);
        assertEquals("echo", view.provider());
        assertEquals("off", view.thinkingLevel());
        assertFalse(view.supportsThinking());
        assertEquals(List.of("off"), view.availableThinkingLevels());
    }

    @Test
    void aChoiceOfAnEngineNoLongerConfiguredIsShownWithoutAName() {
        RuntimeView view = RuntimeView.of("t", new ThreadRuntime("gone", "m", null), ECHO, ENGINES);
        assertEquals("gone", view.provider());
        assertEquals("m", view.modelId());
        assertNull(view.modelName());
        assertFalse(view.supportsThinking());
    }

    @Test
    void choicesKeepEachOtherAndRefuseWhatTheInstanceDoesNotOffer() {
        ThreadRuntime large = RuntimeView.choosingModel(ThreadRuntime.DEFAULT, "openresponses", "large", ENGINES);
        ThreadRuntime thinking = RuntimeView.choosingThinking(large, "xhigh");
        assertEquals(new ThreadRuntime("openresponses", "large", "xhigh"), thinking);
        assertEquals(new ThreadRuntime("echo", "echo", "xhigh"), RuntimeView.choosingModel(thinking, "echo", "echo", ENGINES));
        RuntimeChoiceException unknown = assertThrows(RuntimeChoiceException.class,
                () -> RuntimeView.choosingModel(thinking, "openresponses", "huge", ENGINES));
        assertEquals("model openresponses/huge is not available in registry", unknown.getMessage());
        assertEquals(RuntimeChoiceException.Choice.MODEL, unknown.choice());
        assertThrows(RuntimeChoiceException.class, () -> RuntimeView.choosingModel(thinking, "nope", "echo", ENGINES));
        assertEquals(RuntimeChoiceException.Choice.THINKING_LEVEL, assertThrows(RuntimeChoiceException.class,
                () -> RuntimeView.choosingThinking(thinking, "maximal")).choice());
    }
}
