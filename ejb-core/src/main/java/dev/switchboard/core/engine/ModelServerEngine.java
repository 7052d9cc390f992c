package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.ModelCall;
import dev.switchboard.core.engine.model.ModelReply;
import dev.switchboard.core.engine.model.ModelStreamException;
import dev.switchboard.core.engine.model.ModelWire;
import dev.switchboard.core.engine.model.SseLines;
import dev.switchboard.core.engine.model.FunctionCalls;
import dev.switchboard.core.engine.tool.ToolBox;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

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
 */
public final class ModelServerEngine implements AgentEngine {

    /** The function tool through which a model calls other agents (when its run may). */
    public static final String DELEGATE = "delegate";

    static final long FIRST_RETRY_MS = 250;

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
    private final HttpClient client;
    private final ScheduledExecutorService timer;
    private final JsonArray toolDeclarations;

    public ModelServerEngine(Settings settings, HttpClient client, ScheduledExecutorService timer) {
        this.settings = settings;
        this.client = client;
        this.timer = timer;
        this.toolDeclarations = settings.tools().declarations().build();
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

    /** One run's conversation: what the model is sent, and what the run adds to it. */
    private final class Conversation {
        final EngineRequest request;
        final List<JsonObject> input = new ArrayList<>();
        final List<JsonObject> steps = new ArrayList<>();
        final CompletableFuture<JsonObject> result = new CompletableFuture<>();
        long inputTokens;
        long outputTokens;
        /** The input was cut to fit the model's context (spec §11.3), which is done once per run. */
        boolean compacted;

        final Optional<String> instructions;
        final JsonArray tools;
        final JsonValue toolChoice;
        /** Tools the client declared: a call of one ends the run, for the client to answer. */
        final Set<String> clientTools;
        /** The run's place in a delegation tree (null outside a lane); with agents to call, the model may delegate. */
        final Delegation tree;
        final boolean delegates;
        /** The index the run's next delegated call takes (counting every call of the run, across executions). */
        int nextCall;
        /** The server's tools and, when the run has a worktree, its workspace tools. */
        final ToolBox toolBox;

        Conversation(EngineRequest request) {
            this.request = request;
            this.tree = request.delegation() == null ? null : request.delegated().orElse(null);
            this.delegates = tree != null && !tree.callable().isEmpty();
            this.toolBox = request.workspaceTools().map(settings.tools()::with).orElse(settings.tools());
            JsonArray declared = toolBox == settings.tools() ? toolDeclarations : toolBox.declarations().build();
            JsonArray serverTools = delegates ? withDelegate(declared, tree.callable()) : declared;
            Optional<ClientCall> call = request.call();
            if (call.isPresent()) { // a client's request: its own items, and its instructions when it gave some
                input.addAll(request.history().get());
                input.addAll(call.get().input());
                instructions = call.get().instructions().or(settings::instructions);
                tools = call.get().offeredTools(serverTools);
                toolChoice = call.get().modelToolChoice().orElse(ModelCall.AUTO);
                clientTools = call.get().modelToolChoice().isPresent() ? call.get().allowedToolNames() : Set.of();
            } else {
                Set<String> resumed = request.resumed().map(r -> r.calls().stream()
                        .map(c -> c.getString("call_id", "")).collect(Collectors.toSet())).orElse(Set.of());
                input.addAll(FunctionCalls.answered(request.history().get(), resumed));
                if (request.resumed().isEmpty()) { // a resumption carries on the message its calls answer
                    input.add(Jsons.createObjectBuilder().add("type", "message").add("role", "user")
                            .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder()
                                    .add("type", "input_text").add("text", request.inputText()))).build());
                }
                instructions = tree != null && tree.instructions() != null ? Optional.of(tree.instructions())
                        : settings.instructions();
                tools = serverTools;
                toolChoice = ModelCall.AUTO;
                clientTools = Set.of();
            }
        }

        void step(JsonObject item) {
            input.add(item);
            steps.add(item);
            request.stream().item(item);
        }

        ModelCall call() {
            ModelChoice choice = request.choice();
            return new ModelCall(choice.modelId() != null ? choice.modelId() : settings.model(), instructions,
                    List.copyOf(input), settings.maxOutputTokens(), tools, toolChoice,
                    choice.thinks() ? Optional.of(choice.thinkingLevel()) : Optional.empty());
        }

        boolean fail(String message) {
            return result.completeExceptionally(new EngineFailure(message));
        }

        JsonObject output(ModelReply reply) {
            JsonObjectBuilder output = Jsons.createObjectBuilder().add("type", "message").add("text", reply.text());
            if (reply.responseId() != null) {
                output.add("response_id", reply.responseId());
            }
            if (reply.model() != null) {
                output.add("model", reply.model());
            }
            return withSteps(output).build();
        }

        /** The output of a run that ends without a model's answer: a rejection's text, or a pause. */
        JsonObjectBuilder output(String text) {
            return withSteps(Jsons.createObjectBuilder().add("type", "message").add("text", text));
        }

        private JsonObjectBuilder withSteps(JsonObjectBuilder output) {
            output.add("usage", Jsons.createObjectBuilder().add("input_tokens", inputTokens).add("output_tokens", outputTokens));
            if (compacted) {
                output.add("context_compacted", true);
            }
            if (!steps.isEmpty()) {
                JsonArrayBuilder items = Jsons.createArrayBuilder();
                steps.forEach(items::add);
                output.add("items", items);
            }
            return output;
        }
    }

    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        Conversation conversation = new Conversation(request);
        // a run stopped while a tool works ends now; the tool's late output is dropped with it
        request.cancellation().onCancel(() -> conversation.fail("cancelled"));
        Optional<ToolResumption> resumed = request.resumed();
        if (resumed.isEmpty() && conversation.tree != null && conversation.tree.state() != null) {
            afterReplies(conversation, conversation.tree.state());
        } else if (resumed.isEmpty()) {
            round(conversation, 0);
        } else {
            resume(conversation, resumed.get());
        }
        return conversation.result;
    }

    /**
     * Carries on a paused tool loop: rejected, every call left is answered with the rejection and
     * the run ends with its text, no model call; approved, the waiting call runs as it is, the
     * others are put to the approvals again, then the loop goes on.
     */
    private void resume(Conversation c, ToolResumption resumption) {
        List<JsonObject> calls = resumption.calls();
        if (calls.isEmpty()) {
            round(c, 0);
            return;
        }
        if (!resumption.approved()) {
            calls.forEach(call -> c.step(FunctionCalls.output(call.getString("call_id"),
                    "error: not approved: rejected by the user")));
            c.result.complete(c.output(resumption.rejection() == null ? "" : resumption.rejection()).build());
            return;
        }
        CompletionStage<Boolean> paused;
        if (resumption.recheck()) {
            paused = runTools(c, calls, 0, false);
        } else {
            JsonObject approved = calls.get(0);
            ToolApprovals.Verdict credential = settings.approvals().credentialOf(c.request, approved);
            if (credential.awaitsCredential() != null) {
                pause(c, calls, 0, false, credential);
                return;
            }
            paused = callTool(c, approved, credential.credential())
                    .thenCompose(output -> {
                        c.step(FunctionCalls.output(approved.getString("call_id"), output));
                        return runTools(c, calls.subList(1, calls.size()), 0, false);
                    });
        }
        paused.whenComplete((stopped, error) -> {
            if (error != null) {
                c.result.completeExceptionally(error);
            } else if (!stopped) {
                round(c, 1);
            }
        });
    }

    /** Calls the model; answers, or runs the tools it asked for and calls it again. */
    private void round(Conversation c, int toolRounds) {
        if (c.request.cancelled()) {
            c.fail("cancelled");
            return;
        }
        CompletableFuture<ModelReply> reply = new CompletableFuture<>();
        attempt(c.request, request(c.call()), reply, 0);
        reply.whenComplete((answer, error) -> {
            if (error != null) {
                if (unwrap(error) instanceof ContextOverflow.Exceeded && !c.compacted) { // spec §11.3: once
                    List<JsonObject> fitted = ContextOverflow.emergency(c.input);
                    if (fitted != c.input) {
                        c.input.clear();
                        c.input.addAll(fitted);
                        c.compacted = true;
                        round(c, toolRounds);
                        return;
                    }
                }
                c.result.completeExceptionally(error);
                return;
            }
            c.inputTokens += answer.inputTokens();
            c.outputTokens += answer.outputTokens();
            List<JsonObject> forClient = answer.functionCalls().stream()
                    .filter(call -> c.clientTools.contains(call.getString("name", ""))).toList();
            if (!forClient.isEmpty()) { // run our own calls of the same turn, then hand the client its calls
                List<JsonObject> ours = answer.functionCalls().stream().filter(call -> !forClient.contains(call)).toList();
                runTools(c, ours, 0, true).whenComplete((paused, toolError) -> {
                    if (toolError != null) {
                        c.result.completeExceptionally(toolError);
                    } else if (!paused) {
                        forClient.forEach(c::step);
                        c.result.complete(c.output(answer));
                    }
                });
            } else if (answer.functionCalls().isEmpty()) {
                c.result.complete(c.output(answer));
            } else if (toolRounds == settings.maxToolSteps()) {
                c.fail("the model asked for tools more than " + settings.maxToolSteps()
                        + " times in one run (switchboard.engine.openresponses.max-tool-steps)");
            } else {
                if (!answer.text().isEmpty()) {
                    c.step(assistantMessage(answer.text()));
                }
                List<JsonObject> delegations = c.delegates ? answer.functionCalls().stream()
                        .filter(call -> DELEGATE.equals(call.getString("name", ""))).toList() : List.of();
                List<JsonObject> tools = answer.functionCalls().stream().filter(call -> !delegations.contains(call)).toList();
                runTools(c, tools, 0, true).whenComplete((paused, toolError) -> {
                    if (toolError != null) {
                        c.result.completeExceptionally(toolError);
                    } else if (!paused && delegations.isEmpty()) {
                        round(c, toolRounds + 1);
                    } else if (!paused) {
                        delegate(c, delegations, toolRounds);
                    }
                });
            }
        });
    }

    /**
     * Ends the execution asking for the model's {@code delegate} calls (one is a delegation,
     * several a fork), keeping the loop's steps for the execution that goes on once the replies are
     * in ({@link #afterReplies}): the model is not asked again for what it already said.
     */
    private void delegate(Conversation c, List<JsonObject> delegations, int toolRounds) {
        List<Delegation.Call> calls = new ArrayList<>();
        JsonArrayBuilder pending = Jsons.createArrayBuilder();
        for (JsonObject call : delegations) {
            c.step(call);
            JsonObject arguments = arguments(call.getString("arguments", "{}"));
            int index = c.nextCall++;
            calls.add(new Delegation.Call(index, arguments.getString("agent", ""), arguments.getString("input", "")));
            pending.add(Jsons.createObjectBuilder().add("call_id", call.getString("call_id", "")).add("index", index));
        }
        JsonArrayBuilder steps = Jsons.createArrayBuilder();
        c.steps.forEach(steps::add);
        c.result.complete(Delegation.callsOutput(calls, Jsons.createObjectBuilder().add("steps", steps)
                .add("pending", pending).add("tool_rounds", toolRounds).add("next_call", c.nextCall)
                .add("input_tokens", c.inputTokens).add("output_tokens", c.outputTokens).build()));
    }

    /**
     * Goes on with a loop that asked for calls, now answered: its steps as they were, each
     * {@code delegate} call's replies as its output (a broadcast's one per line, {@code from:} first),
     * then the model again.
     */
    private void afterReplies(Conversation c, JsonObject state) {
        for (JsonObject item : state.getJsonArray("steps").getValuesAs(JsonObject.class)) {
            c.input.add(item);
            c.steps.add(item);
        }
        c.inputTokens = state.getJsonNumber("input_tokens").longValue();
        c.outputTokens = state.getJsonNumber("output_tokens").longValue();
        c.nextCall = state.getInt("next_call");
        for (JsonObject p : state.getJsonArray("pending").getValuesAs(JsonObject.class)) {
            List<Delegation.Reply> replies = c.tree.repliesTo(p.getInt("index"));
            String text = replies.isEmpty() ? "error: no reply"
                    : replies.size() == 1 ? replies.get(0).asToolResult()
                    : Delegation.told(replies, "\n");
            c.step(FunctionCalls.output(p.getString("call_id"), text));
        }
        round(c, state.getInt("tool_rounds") + 1);
    }

    /** The server's tools and the {@code delegate} tool, whose {@code agent} is one of {@code callable}. */
    static JsonArray withDelegate(JsonArray serverTools, List<String> callable) {
        JsonArrayBuilder names = Jsons.createArrayBuilder();
        callable.forEach(names::add);
        JsonArrayBuilder tools = Jsons.createArrayBuilder();
        serverTools.forEach(tools::add);
        tools.add(Jsons.createObjectBuilder().add("type", "function").add("name", DELEGATE)
                .add("description", "Hand a task to another agent and get its answer. Several calls in one answer run"
                        + " in parallel; an agent name that several agents serve reaches each of them.")
                .add("parameters", Jsons.createObjectBuilder().add("type", "object")
                        .add("properties", Jsons.createObjectBuilder()
                                .add("agent", Jsons.createObjectBuilder().add("type", "string").add("enum", names))
                                .add("input", Jsons.createObjectBuilder().add("type", "string")
                                        .add("description", "what the agent is asked")))
                        .add("required", Jsons.createArrayBuilder().add("agent").add("input"))
                        .add("additionalProperties", false))
                .add("strict", false));
        return tools.build();
    }

    /**
     * The calls from {@code index} on, one after another, each shown with its output; completes
     * true when one awaits a person — the run then ended with the calls left in its output
     * ({@code awaiting_approval}), none of them run. {@code shown}: the calls are not steps yet
     * (a resumption's calls already are).
     */
    private CompletionStage<Boolean> runTools(Conversation c, List<JsonObject> calls, int index, boolean shown) {
        if (index == calls.size()) {
            return CompletableFuture.completedFuture(false);
        }
        if (c.request.cancelled()) {
            return CompletableFuture.failedFuture(new EngineFailure("cancelled"));
        }
        JsonObject call = calls.get(index);
        if (shown) {
            c.step(settings.approvals().shown(c.request, call));
        }
        String callId = call.getString("call_id");
        return settings.approvals().decide(c.request, call).thenCompose(verdict -> {
            if (verdict.awaitsPerson() || verdict.awaitsCredential() != null) {
                pause(c, calls, index, shown, verdict);
                return CompletableFuture.completedFuture(true);
            }
            CompletionStage<String> output = verdict.allowed()
                    ? callTool(c, call, verdict.credential())
                    : CompletableFuture.completedFuture("error: not approved: " + verdict.reason());
            return output.thenCompose(text -> {
                c.step(FunctionCalls.output(callId, text));
                return runTools(c, calls, index + 1, shown);
            });
        });
    }

    /** Runs the call's tool with its real arguments ({@link ToolApprovals#restored}); {@code credential} may be null. */
    private CompletionStage<String> callTool(Conversation c, JsonObject call, String credential) {
        JsonObject real;
        try {
            real = settings.approvals().restored(c.request, call);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return c.toolBox.call(real.getString("name"), real.getString("arguments"), credential);
    }

    /**
     * Ends the run at {@code calls[index]}, which waits for a person ({@code awaiting_approval}) or
     * for the user's credential ({@code awaiting_token}, naming it): the calls left, none of them
     * run, are in the output for the server to keep.
     */
    private void pause(Conversation c, List<JsonObject> calls, int index, boolean shown, ToolApprovals.Verdict verdict) {
        if (shown) {
            calls.subList(index + 1, calls.size()).forEach(call -> c.step(settings.approvals().shown(c.request, call)));
        }
        JsonArrayBuilder left = Jsons.createArrayBuilder(); // kept: their secrets sealed, never in the output in clear
        calls.subList(index, calls.size()).forEach(call -> left.add(settings.approvals().kept(c.request, call)));
        JsonObjectBuilder waiting = Jsons.createObjectBuilder().add("calls", left);
        if (verdict.awaitsCredential() != null) {
            c.result.complete(c.output("").add("awaiting_token", waiting.add("credential", verdict.awaitsCredential()))
                    .build());
        } else {
            c.result.complete(c.output("").add("awaiting_approval", waiting).build());
        }
    }

    private HttpRequest request(ModelCall call) {
        HttpRequest.Builder request = HttpRequest.newBuilder(settings.baseUrl().resolve(path(settings.baseUrl())
                        + settings.wire().path()))
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream, application/json")
                .POST(HttpRequest.BodyPublishers.ofString(settings.wire().body(call).toString()));
        settings.apiKey().ifPresent(key -> request.header("Authorization", "Bearer " + key));
        return request.build();
    }

    /**
     * One try of one model call. Its outcome is settled once, by whichever comes first: the stream's
     * end (a streamed answer), the whole body (an error status, or a server that does not stream),
     * or the request's failure (connection, cancellation).
     */
    private void attempt(EngineRequest request, HttpRequest call, CompletableFuture<ModelReply> reply, int retry) {
        if (request.cancelled()) {
            reply.completeExceptionally(new EngineFailure("cancelled"));
            return;
        }
        Try attempt = new Try(request, call, reply, retry);
        CompletableFuture<HttpResponse<String>> sent = client.sendAsync(call, info -> {
            int status = info.statusCode();
            if (status / 100 == 2 && info.headers().firstValue("Content-Type").orElse("").contains("text/event-stream")) {
                SseLines lines = new SseLines(settings.wire().reader(request.stream()));
                attempt.lines = lines;
                request.cancellation().onCancel(lines::cancel);
                lines.reply().whenComplete((answer, error) -> attempt.settle(status, null, answer, error));
                return HttpResponse.BodySubscribers.fromLineSubscriber(lines, l -> null, StandardCharsets.UTF_8, null);
            }
            return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8),
                    body -> {
                        attempt.settle(status, body, null, null);
                        return body;
                    });
        });
        request.cancellation().onCancel(() -> sent.cancel(true));
        sent.whenComplete((response, error) -> {
            if (error != null) {
                attempt.settle(0, null, null, error);
            }
        });
    }

    /** The state of one try: settled once. */
    private final class Try {
        final EngineRequest request;
        final HttpRequest call;
        final CompletableFuture<ModelReply> reply;
        final int retry;
        volatile SseLines lines;
        private boolean settled;

        Try(EngineRequest request, HttpRequest call, CompletableFuture<ModelReply> reply, int retry) {
            this.request = request;
            this.call = call;
            this.reply = reply;
            this.retry = retry;
        }

        void settle(int status, String body, ModelReply streamed, Throwable error) {
            synchronized (this) {
                if (settled) {
                    return;
                }
                settled = true;
            }
            Throwable cause = unwrap(error);
            SseLines reading = lines;
            boolean shown = reading != null && reading.reader().streamedAny();
            boolean transientFailure = cause instanceof IOException || cause == null && (status == 429 || status >= 500);
            if (transientFailure && retry < settings.retries() && !shown && !request.cancelled()) {
                timer.schedule(() -> attempt(request, call, reply, retry + 1), FIRST_RETRY_MS << retry, TimeUnit.MILLISECONDS);
            } else if (request.cancelled()) {
                reply.completeExceptionally(new EngineFailure("cancelled"));
            } else if (cause instanceof ModelStreamException) {
                reply.completeExceptionally(new EngineFailure(cause.getMessage()));
            } else if (cause != null) {
                reply.completeExceptionally(new EngineFailure("model server unreachable: " + cause.getClass().getSimpleName()
                        + (cause.getMessage() == null ? "" : ": " + cause.getMessage())));
            } else if (status / 100 != 2) {
                String message = "model server answered " + status + ": " + errorMessage(body);
                reply.completeExceptionally(ContextOverflow.isOverflow(status, body) ? new ContextOverflow.Exceeded(message)
                        : new EngineFailure(message));
            } else if (streamed != null) {
                reply.complete(streamed);
            } else {
                try {
                    reply.complete(settings.wire().whole(parse(body)));
                } catch (RuntimeException e) {
                    reply.completeExceptionally(new EngineFailure(e instanceof ModelStreamException ? e.getMessage()
                            : "model server's answer is not a response: " + e.getMessage()));
                }
            }
        }
    }

    private static JsonObject assistantMessage(String text) {
        return Jsons.createObjectBuilder().add("type", "message").add("role", "assistant")
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder().add("type", "output_text")
                        .add("text", text).add("annotations", JsonValue.EMPTY_JSON_ARRAY)))
                .build();
    }

    /** The server's {@code error.message} (the error body of both APIs), else the start of its body. */
    static String errorMessage(String body) {
        try {
            JsonObject error = parse(body).getJsonObject("error");
            if (error != null && error.get("message") instanceof jakarta.json.JsonString message) {
                return message.getString();
            }
        } catch (RuntimeException notJson) {
            // fall through to the raw body
        }
        String raw = body == null ? "" : body.strip();
        return raw.length() > 200 ? raw.substring(0, 200) + "…" : raw;
    }

    private static JsonObject parse(String body) {
        try (JsonReader reader = Jsons.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    /** A call's arguments; none when they are not a JSON object (the call then names no agent, and is refused). */
    private static JsonObject arguments(String json) {
        try {
            return parse(json);
        } catch (RuntimeException e) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String path(URI base) {
        String path = base.getPath() == null ? "" : base.getPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
