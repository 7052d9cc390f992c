package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.FunctionCalls;
import dev.switchboard.core.engine.model.ModelReply;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The {@link ModelServerEngine}'s tool loop, one conversation at a time: the model is called
 * ({@link ModelServerClient}); its answer ends the run, or the tools it asked for are run
 * ({@link ToolCalls}) and it is called again — at most {@link ModelServerEngine.Settings#maxToolSteps}
 * times. A loop can stop and go on in a later execution: paused for a person's approval or a
 * credential ({@link #resume}), or ended asking for {@code delegate} calls whose replies it reads
 * when it goes on ({@link #afterReplies}).
 */
final class ToolLoop {

    private final ModelServerEngine.Settings settings;
    private final ModelServerClient server;
    private final ToolCalls toolCalls;

    ToolLoop(ModelServerEngine.Settings settings, ModelServerClient server, ToolCalls toolCalls) {
        this.settings = settings;
        this.server = server;
        this.toolCalls = toolCalls;
    }

    /**
     * Carries on a paused tool loop: rejected, every call left is answered with the rejection and
     * the run ends with its text, no model call; approved, the waiting call runs as it is, the
     * others are put to the approvals again, then the loop goes on.
     */
    void resume(ModelConversation c, ToolResumption resumption) {
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
            paused = toolCalls.runTools(c, calls, 0, false);
        } else {
            JsonObject approved = calls.get(0);
            ToolApprovals.Verdict credential = settings.approvals().credentialOf(c.request, approved);
            if (credential.awaitsCredential() != null) {
                toolCalls.pause(c, calls, 0, false, credential);
                return;
            }
            paused = toolCalls.callTool(c, approved, credential.credential())
                    .thenCompose(output -> {
                        c.step(FunctionCalls.output(approved.getString("call_id"), output));
                        return toolCalls.runTools(c, calls.subList(1, calls.size()), 0, false);
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
    void round(ModelConversation c, int toolRounds) {
        if (c.request.cancelled()) {
            c.fail("cancelled");
            return;
        }
        CompletableFuture<ModelReply> reply = server.send(c.request, c.call());
        reply.whenComplete((answer, error) -> {
            if (error != null) {
                if (ModelServerClient.unwrap(error) instanceof ContextOverflow.Exceeded && !c.compacted) { // spec §11.3: once
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
                toolCalls.runTools(c, ours, 0, true).whenComplete((paused, toolError) -> {
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
                        .filter(call -> ModelServerEngine.DELEGATE.equals(call.getString("name", ""))).toList() : List.of();
                List<JsonObject> tools = answer.functionCalls().stream().filter(call -> !delegations.contains(call)).toList();
                toolCalls.runTools(c, tools, 0, true).whenComplete((paused, toolError) -> {
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
    private void delegate(ModelConversation c, List<JsonObject> delegations, int toolRounds) {
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
    void afterReplies(ModelConversation c, JsonObject state) {
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

    private static JsonObject assistantMessage(String text) {
        return Jsons.createObjectBuilder().add("type", "message").add("role", "assistant")
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder().add("type", "output_text")
                        .add("text", text).add("annotations", JsonValue.EMPTY_JSON_ARRAY)))
                .build();
    }

    /** A call's arguments; none when they are not a JSON object (the call then names no agent, and is refused). */
    private static JsonObject arguments(String json) {
        try {
            return ModelServerClient.parse(json);
        } catch (RuntimeException e) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
    }
}
