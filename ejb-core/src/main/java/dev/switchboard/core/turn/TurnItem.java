package dev.switchboard.core.turn;

import jakarta.json.JsonObject;

/**
 * A conversation item as stored: a user message of a run's input, or the assistant reply of its
 * output. {@code itemId} is derived from the run ({@code <run_id>:in:<n>}, {@code <run_id>:out}).
 */
public record TurnItem(String itemId, String runId, String turnId, String role, String status, JsonObject content) {
}
