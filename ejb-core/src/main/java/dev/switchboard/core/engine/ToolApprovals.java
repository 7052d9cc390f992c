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
 *
 * <p>It also says how a call is seen while it waits and after: {@link #shown} is the call as every
 * step, stream, stored item and later model request has it (secrets redacted), {@link #kept} the
 * call as a paused run's output keeps it for later, {@link #restored} the call as its tool gets it.
 */
public interface ToolApprovals {

    /** Every call runs (the built-in tools need no approval). */
    ToolApprovals NONE_NEEDED = (request, call) -> CompletableFuture.completedFuture(Verdict.ALLOWED);

    /** @param call the Open Responses {@code function_call} item */
    CompletionStage<Verdict> decide(EngineRequest request, JsonObject call);

    /** The call as it is shown, streamed and stored: its secret arguments redacted. */
    default JsonObject shown(EngineRequest request, JsonObject call) {
        return call;
    }

    /** A call left for later (a paused run's output): shown as {@link #shown}, its secrets kept sealed. */
    default JsonObject kept(EngineRequest request, JsonObject call) {
        return call;
    }

    /**
     * The call as its tool runs it: a {@link #kept} call with its secrets opened; any other call as it is.
     *
     * @throws EngineFailure when kept secrets no longer open (the key that sealed them is gone)
     */
    default JsonObject restored(EngineRequest request, JsonObject call) {
        return call;
    }

    /**
     * The credential a call a person already approved runs with: {@link Verdict#ALLOWED} when its
     * tool needs none, {@link Verdict#allowedWith} the user's secret, or
     * {@link Verdict#awaitCredential} when the user has not given it yet.
     */
    default Verdict credentialOf(EngineRequest request, JsonObject call) {
        return Verdict.ALLOWED;
    }

    /**
     * @param awaitsPerson the call waits for a person: the run ends here, its calls left for a
     *        {@link ToolResumption} to carry on
     * @param awaitsCredential the name of the credential the call waits for (the user has not given
     *        it yet): the run ends here as for a person, the calls left until the user gives it
     * @param credential the user's secret the tool runs with, or null; never shown
     */
    record Verdict(boolean allowed, String reason, boolean awaitsPerson, String awaitsCredential, String credential) {
        public static final Verdict ALLOWED = new Verdict(true, null, false, null, null);
        public static final Verdict AWAIT_PERSON = new Verdict(false, "awaiting a person's approval", true, null, null);

        public static Verdict refused(String reason) {
            return new Verdict(false, reason, false, null, null);
        }

        public static Verdict allowedWith(String credential) {
            return new Verdict(true, null, false, null, credential);
        }

        public static Verdict awaitCredential(String name) {
            return new Verdict(false, "awaiting the user's credential " + name, false, name, null);
        }

        @Override
        public String toString() { // the secret stays out of every log line
            return "Verdict[allowed=" + allowed + ", reason=" + reason + ", awaitsPerson=" + awaitsPerson
                    + ", awaitsCredential=" + awaitsCredential + ", credential=" + (credential == null ? "none" : "***")
                    + "]";
        }
    }
}
