package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.FunctionCalls;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The function calls of one model answer, run for the {@link ToolLoop}: each put to the
 * {@link ToolApprovals}, run from the conversation's tool box, shown as a step with its output; a
 * call that awaits a person or the user's credential ends the run there, the calls left in its
 * output.
 */
final class ToolCalls {

    private final ToolApprovals approvals;

    ToolCalls(ToolApprovals approvals) {
        this.approvals = approvals;
    }

    /**
     * The calls from {@code index} on, one after another, each shown with its output; completes
     * true when one awaits a person — the run then ended with the calls left in its output
     * ({@code awaiting_approval}), none of them run. {@code shown}: the calls are not steps yet
     * (a resumption's calls already are).
     */
    CompletionStage<Boolean> runTools(ModelConversation c, List<JsonObject> calls, int index, boolean shown) {
        if (index == calls.size()) {
            return CompletableFuture.completedFuture(false);
        }
        if (c.request.cancelled()) {
            return CompletableFuture.failedFuture(new EngineFailure("cancelled"));
        }
        JsonObject call = calls.get(index);
        if (shown) {
            c.step(approvals.shown(c.request, call));
        }
        String callId = call.getString("call_id");
        return approvals.decide(c.request, call).thenCompose(verdict -> {
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
    CompletionStage<String> callTool(ModelConversation c, JsonObject call, String credential) {
        JsonObject real;
        try {
            real = approvals.restored(c.request, call);
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
    void pause(ModelConversation c, List<JsonObject> calls, int index, boolean shown, ToolApprovals.Verdict verdict) {
        if (shown) {
            calls.subList(index + 1, calls.size()).forEach(call -> c.step(approvals.shown(c.request, call)));
        }
        JsonArrayBuilder left = Jsons.createArrayBuilder(); // kept: their secrets sealed, never in the output in clear
        calls.subList(index, calls.size()).forEach(call -> left.add(approvals.kept(c.request, call)));
        JsonObjectBuilder waiting = Jsons.createObjectBuilder().add("calls", left);
        if (verdict.awaitsCredential() != null) {
            c.result.complete(c.output("").add("awaiting_token", waiting.add("credential", verdict.awaitsCredential()))
                    .build());
        } else {
            c.result.complete(c.output("").add("awaiting_approval", waiting).build());
        }
    }
}
