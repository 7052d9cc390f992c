package dev.switchboard.core.execution;

import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.engine.ToolResumption;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where an execution's engine reads what the run carries beyond its text — the conversation before
 * it, a client's model request, its place in a delegation tree, a paused tool call it resumes —
 * each read from the database only when the engine first asks. {@link EngineWork} passes them to
 * the engine as the {@linkplain ExecutionPreparation preparations} set them; it reads none itself.
 *
 * @param clientCall null when the run is not a client's model request
 * @param delegation null when the run can be in no delegation tree
 * @param resumption null when the run resumes no paused tool call
 */
public record EngineInputs(Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall,
        Supplier<Delegation> delegation, ToolResumption resumption) {

    /** A run's inputs before any preparation: its text alone. */
    public static final EngineInputs NONE = new EngineInputs(List::of, null, null, null);

    public EngineInputs withHistory(Supplier<List<JsonObject>> read) {
        return new EngineInputs(read, clientCall, delegation, resumption);
    }

    public EngineInputs withClientCall(Supplier<ClientCall> read) {
        return new EngineInputs(history, read, delegation, resumption);
    }

    public EngineInputs withDelegation(Supplier<Delegation> read) {
        return new EngineInputs(history, clientCall, read, resumption);
    }

    public EngineInputs withResumption(ToolResumption paused) {
        return new EngineInputs(history, clientCall, delegation, paused);
    }
}
