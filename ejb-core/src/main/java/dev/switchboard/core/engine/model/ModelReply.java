package dev.switchboard.core.engine.model;

import jakarta.json.JsonObject;
import java.util.List;

/**
 * What one model call answered: its text, the function calls it asked for (Open Responses
 * {@code function_call} items with {@code call_id}, {@code name} and {@code arguments}), the
 * server's response id and model (null when not given) and the tokens it counted.
 */
public record ModelReply(String text, List<JsonObject> functionCalls, String responseId, String model,
        long inputTokens, long outputTokens) {
}
