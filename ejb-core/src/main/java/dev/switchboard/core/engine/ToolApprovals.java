package dev.switchboard.core.engine;

import jakarta.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Decides whether a function call the model asked for may run — the seam where a person's
 * approval is awaited. The tool loop asks before every call; a refusal becomes the call's output
 * ({@code error: not approved: <reason>}), so the model learns of it and the run goes on.
 */
public interface ToolApprovals {

    /** Every call runs (the built-in tools need no approval). */
    ToolApprovals NONE_NEEDED = (request, call) -> CompletableFuture.completedFuture(Verdict.ALLOWED);

    /** @param call the Open Responses {@code function_call} item */
    CompletionStage<Verdict> decide(EngineRequest request, JsonObject call);

    record Verdict(boolean allowed, String reason) {
        public static final Verdict ALLOWED = new Verdict(true, null);

        public static Verdict refused(String reason) {
            return new Verdict(false, reason);
        }
    }
}
