package dev.switchboard.core.lane;

import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.engine.Delegation;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where an execution's engine reads what the run carries beyond its text: the conversation before
 * it, for a client's model request that request, and its place in a delegation tree — each read
 * from the database only when the engine first asks.
 *
 * @param clientCall null when the run is not a client's model request
 * @param delegation null when the run can be in no delegation tree
 */
public record EngineInputs(Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall,
        Supplier<Delegation> delegation) {

    /** Inputs of a run that can be in no delegation tree. */
    public EngineInputs(Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall) {
        this(history, clientCall, null);
    }
}
