package dev.switchboard.core.engine;

import dev.switchboard.core.engine.tool.ToolBox;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The input of one engine call: the run, its thread, its attempt, the call's cancellation, the
 * thread's conversation before this run ({@link #history()}) and where the engine shows its
 * progress ({@link #stream()}).
 *
 * @param history the thread's latest items before this run, oldest first (Open Responses item
 *        shapes), at most {@code SWITCHBOARD_HISTORY_MAX_ITEMS}; read from the database when first
 *        asked for, so an engine that never asks costs nothing
 * @param choice the model and thinking level the run's thread chose ({@link ModelChoice#NONE}: none)
 * @param clientCall the client's model request when the run is one (then {@code history} is the
 *        conversation before it, which the request resolved), else null
 * @param resumption the paused tool loop the run carries on, else null
 * @param delegation what the run knows of its delegation tree (read when first asked for); null
 *        outside a lane (no tree: calls cannot be made)
 * @param workspace the tools of the run's worktree when its thread has a workspace, else null
 */
public record EngineRequest(String runId, String userKey, String threadKey, String inputText,
        String deliveryMode, int attempt, Cancellation cancellation, Supplier<List<JsonObject>> history,
        Supplier<ClientCall> clientCall, ModelChoice choice, RunStream stream, ToolResumption resumption,
        Supplier<Delegation> delegation, ToolBox workspace) {

    /** A call without a workspace. */
    public EngineRequest(String runId, String userKey, String threadKey, String inputText, String deliveryMode,
            int attempt, Cancellation cancellation, Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall,
            ModelChoice choice, RunStream stream, ToolResumption resumption, Supplier<Delegation> delegation) {
        this(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, history, clientCall, choice,
                stream, resumption, delegation, null);
    }

    /** This call, working in a worktree whose tools are {@code tools}. */
    public EngineRequest withWorkspace(ToolBox tools) {
        return new EngineRequest(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, history,
                clientCall, choice, stream, resumption, delegation, tools);
    }

    /** The tools of the run's worktree, when its thread has a workspace. */
    public Optional<ToolBox> workspaceTools() {
        return Optional.ofNullable(workspace);
    }

    /** A call outside any delegation tree. */
    public EngineRequest(String runId, String userKey, String threadKey, String inputText, String deliveryMode,
            int attempt, Cancellation cancellation, Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall,
            ModelChoice choice, RunStream stream, ToolResumption resumption) {
        this(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, history, clientCall, choice,
                stream, resumption, null);
    }

    /** The run's place in a delegation tree, when it may have one (read on first use). */
    public Optional<Delegation> delegated() {
        return delegation == null ? Optional.empty() : Optional.ofNullable(delegation.get());
    }

    /** A call that is not a {@link ToolResumption}. */
    public EngineRequest(String runId, String userKey, String threadKey, String inputText, String deliveryMode,
            int attempt, Cancellation cancellation, Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall,
            ModelChoice choice, RunStream stream) {
        this(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, history, clientCall, choice,
                stream, null);
    }

    /** The paused tool loop this run carries on, when it is one. */
    public Optional<ToolResumption> resumed() {
        return Optional.ofNullable(resumption);
    }

    /** A call whose progress nobody follows. */
    public EngineRequest(String runId, String userKey, String threadKey, String inputText, String deliveryMode,
            int attempt, Cancellation cancellation, Supplier<List<JsonObject>> history) {
        this(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, history, null, ModelChoice.NONE,
                RunStream.NONE);
    }

    /** A call of a message (not a client's model request) on the engine's default model. */
    public EngineRequest(String runId, String userKey, String threadKey, String inputText, String deliveryMode,
            int attempt, Cancellation cancellation, Supplier<List<JsonObject>> history, RunStream stream) {
        this(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, history, null, ModelChoice.NONE,
                stream);
    }

    /** A call on the engine's default model. */
    public EngineRequest(String runId, String userKey, String threadKey, String inputText, String deliveryMode,
            int attempt, Cancellation cancellation, Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall,
            RunStream stream) {
        this(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, history, clientCall,
                ModelChoice.NONE, stream);
    }

    /** The client's model request when the run is one ({@code POST /responses}); read when first asked for. */
    public Optional<ClientCall> call() {
        return clientCall == null ? Optional.empty() : Optional.of(clientCall.get());
    }

    /** A call with no history (a new thread, or a caller that has none to give). */
    public EngineRequest(String runId, String userKey, String threadKey, String inputText, String deliveryMode,
            int attempt, Cancellation cancellation) {
        this(runId, userKey, threadKey, inputText, deliveryMode, attempt, cancellation, List::of);
    }

    public boolean cancelled() {
        return cancellation.isCancelled();
    }
}
