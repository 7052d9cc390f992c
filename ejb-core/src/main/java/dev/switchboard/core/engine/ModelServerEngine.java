package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.ModelWire;
import dev.switchboard.core.engine.tool.ToolBox;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/**
 * {@code openresponses}: each run is a conversation with a model server, through its Open
 * Responses or chat completions API ({@link ModelWire}), streamed. A call's input is the thread's
 * history, the run's message and the tool loop's steps so far; text deltas go to the run's
 * {@link RunStream} as they arrive. When the model asks for function tools, each call is put to
 * the {@link ToolApprovals}, run from the {@link ToolBox}, shown as a step, and the model is
 * called again with the results — at most {@link Settings#maxToolSteps} times. The run's output is
 * the final text with the last response's id and model, the tokens of every call summed, and the
 * steps as {@code items}.
 *
 * <p>A 429, a 5xx or a failed connection is tried again after a growing pause (at most
 * {@link Settings#retries} times, never past a cancellation, never once text of that call was
 * shown); any other 4xx, and a stream that reports an error, fail the run with the server's own
 * message. Cancelling the run aborts the request and stops reading the stream. The API key goes
 * only into the {@code Authorization} header.
 *
 * <p>Its parts: each run's {@link ModelConversation}, driven by the {@link ToolLoop}, which runs an
 * answer's calls through {@link ToolCalls} and each model call through the {@link ModelServerClient}.
 */
public final class ModelServerEngine implements AgentEngine {

    /** The function tool through which a model calls other agents (when its run may). */
    public static final String DELEGATE = "delegate";

    /**
     * @param baseUrl the server's base, ending before the API's path (e.g. {@code http://host:8080/v1})
     * @param retries how many times a transient failure of one model call is tried again
     * @param maxToolSteps how many rounds of tool calls one run may make
     * @param models the models a thread may choose, {@code model} (the default) first
     */
    public record Settings(URI baseUrl, Optional<String> apiKey, String model, Optional<String> instructions,
            Duration requestTimeout, Optional<Integer> maxOutputTokens, int retries, ModelWire wire, ToolBox tools,
            int maxToolSteps, ToolApprovals approvals, List<String> models) {

        /** Only the default model. */
        public Settings(URI baseUrl, Optional<String> apiKey, String model, Optional<String> instructions,
                Duration requestTimeout, Optional<Integer> maxOutputTokens, int retries, ModelWire wire, ToolBox tools,
                int maxToolSteps, ToolApprovals approvals) {
            this(baseUrl, apiKey, model, instructions, requestTimeout, maxOutputTokens, retries, wire, tools, maxToolSteps,
                    approvals, List.of(model));
        }

        /** Open Responses, no tools. */
        public Settings(URI baseUrl, Optional<String> apiKey, String model, Optional<String> instructions,
                Duration requestTimeout, Optional<Integer> maxOutputTokens, int retries) {
            this(baseUrl, apiKey, model, instructions, requestTimeout, maxOutputTokens, retries,
                    new dev.switchboard.core.engine.model.ResponsesWire(), ToolBox.EMPTY, 8, ToolApprovals.NONE_NEEDED);
        }
    }

    private final Settings settings;
    private final JsonArray toolDeclarations;
    private final ToolLoop loop;

    public ModelServerEngine(Settings settings, HttpClient client, ScheduledExecutorService timer) {
        this.settings = settings;
        this.toolDeclarations = settings.tools().declarations().build();
        this.loop = new ToolLoop(settings, new ModelServerClient(settings, client, timer), new ToolCalls(settings.approvals()));
    }

    @Override
    public String name() {
        return "openresponses";
    }

    @Override
    public String defaultModel() {
        return settings.model();
    }

    /** The configured models, each able to think (a thread's thinking level becomes the request's reasoning effort). */
    @Override
    public List<ModelInfo> models() {
        return settings.models().stream().map(m -> new ModelInfo(m, m, true)).toList();
    }

    /** The configured server: its models, an API key or none. */
    @Override
    public List<ModelProvider> providers() {
        return List.of(new ModelProvider("openresponses", settings.apiKey().isPresent(),
                settings.apiKey().map(key -> "api_key"), "SWITCHBOARD_ENGINE_OPENRESPONSES_API_KEY",
                settings.models().size(), settings.models().size()));
    }

    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        ModelConversation conversation = new ModelConversation(request, settings, toolDeclarations);
        // a run stopped while a tool works ends now; the tool's late output is dropped with it
        request.cancellation().onCancel(() -> conversation.fail("cancelled"));
        Optional<ToolResumption> resumed = request.resumed();
        if (resumed.isEmpty() && conversation.tree != null && conversation.tree.state() != null) {
            loop.afterReplies(conversation, conversation.tree.state());
        } else if (resumed.isEmpty()) {
            loop.round(conversation, 0);
        } else {
            loop.resume(conversation, resumed.get());
        }
        return conversation.result;
    }
}
