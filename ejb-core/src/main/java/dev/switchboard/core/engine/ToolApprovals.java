package dev.switchboard.core.engine;

import jakarta.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Decides whether a function call the model asked for may run — the seam where a person's
 * approval is asked for. The tool loop asks before every call; a refusal becomes the call's output
 * ({@code error: not approved: <reason>}), so the model learns of it and the run goes on; a call
 * that awaits a person ends the run there, the calls left in its output for the person to answer
 * ({@link ToolResumption}).
 */
public interface ToolApprovals {

    /** Every call runs (the built-in tools need no approval). */
    ToolApprovals NONE_NEEDED = (request, call) -> CompletableFuture.completedFuture(Verdict.ALLOWED);

    /** @param call the Open Responses {@code function_call} item */
    CompletionStage<Verdict> decide(EngineRequest request, JsonObject call);

    /**
     * @param awaitsPerson the call waits for a person: the run ends here, its calls left for a
     *        {@link ToolResumption} to carry on
     */
    record Verdict(boolean allowed, String reason, boolean awaitsPerson) {
        public static final Verdict ALLOWED = new Verdict(true, null, false);
        public static final Verdict AWAIT_PERSON = new Verdict(false, "awaiting a person's approval", true);

        public static Verdict refused(String reason) {
            return new Verdict(false, reason, false);
        }
    }
}
