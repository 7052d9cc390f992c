package dev.switchboard.core.engine.model;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * One request to a model: the model's name, the system instructions, the conversation so far as
 * Open Responses items (history, the run's message, the tool loop's calls and outputs), the
 * output limit, the function tools offered (Open Responses declarations; empty: none), how the
 * model is to choose among them (Open Responses form: {@code "auto"}, {@code "required"} or
 * {@code {"type":"function","name":…}}) and the reasoning effort asked for (a thread's thinking
 * level; empty: the model's default).
 */
public record ModelCall(String model, Optional<String> instructions, List<JsonObject> input,
        Optional<Integer> maxOutputTokens, JsonArray tools, JsonValue toolChoice, Optional<String> reasoningEffort) {

    /** The choice a model makes freely among the tools. */
    public static final JsonValue AUTO = Jsons.createValue("auto");
}
