package dev.switchboard.core.lane;

import dev.switchboard.core.engine.ClientCall;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where an execution's engine reads what the run carries beyond its text: the conversation before
 * it and, for a client's model request, that request — each read from the database only when the
 * engine first asks.
 *
 * @param clientCall null when the run is not a client's model request
 */
public record EngineInputs(Supplier<List<JsonObject>> history, Supplier<ClientCall> clientCall) {
}
