package dev.switchboard.core.history;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

/**
 * One response's record, as {@link ResponseRecords} keeps it.
 *
 * @param request the normalised request: the fields a response echoes, and its tools and options
 * @param prior the conversation before this response (the previous one's prior, input and output)
 * @param input this response's own new input items
 */
public record ResponseRecord(String responseId, String runId, String userKey, String threadKey,
        String previousResponseId, boolean stored, JsonObject request, JsonArray prior, JsonArray input,
        long createdAt) {
}
