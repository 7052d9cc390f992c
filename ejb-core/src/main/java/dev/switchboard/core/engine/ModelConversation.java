package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.FunctionCalls;
import dev.switchboard.core.engine.model.ModelCall;
import dev.switchboard.core.engine.model.ModelReply;
import dev.switchboard.core.engine.tool.ToolBox;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * One run's conversation with the model server ({@link ModelServerEngine}): what the model is
 * sent, and what the run adds to it. The {@link ToolLoop} drives it, round by round.
 */
final class ModelConversation {

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

    private final ModelServerEngine.Settings settings;

    /** @param toolDeclarations the declarations of the server's tools ({@code settings.tools()}), built once */
    ModelConversation(EngineRequest request, ModelServerEngine.Settings settings, JsonArray toolDeclarations) {
        this.request = request;
        this.settings = settings;
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

    /** The server's tools and the {@code delegate} tool, whose {@code agent} is one of {@code callable}. */
    static JsonArray withDelegate(JsonArray serverTools, List<String> callable) {
        JsonArrayBuilder names = Jsons.createArrayBuilder();
        callable.forEach(names::add);
        JsonArrayBuilder tools = Jsons.createArrayBuilder();
        serverTools.forEach(tools::add);
        tools.add(Jsons.createObjectBuilder().add("type", "function").add("name", ModelServerEngine.DELEGATE)
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
}
