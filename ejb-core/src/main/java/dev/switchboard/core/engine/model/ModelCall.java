package dev.switchboard.core.engine.model;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * One request to a model: the model's name, the system instructions, the conversation so far as
 * Open Responses items (history, the run's message, the tool loop's calls and outputs), the
 * output limit, the function tools offered (Open Responses declarations; empty: none) and the
 * reasoning effort asked for (a thread's thinking level; empty: the model's default).
 */
public record ModelCall(String model, Optional<String> instructions, List<JsonObject> input,
        Optional<Integer> maxOutputTokens, JsonArray tools, Optional<String> reasoningEffort) {
}
