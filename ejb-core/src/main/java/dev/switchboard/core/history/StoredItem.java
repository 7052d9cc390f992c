package dev.switchboard.core.history;

import jakarta.json.JsonObject;

/**
 * One item of a thread's conversation as {@link ThreadItems} stored it; {@code seq} orders a
 * thread's items (and pages them).
 */
public record StoredItem(long seq, String itemId, String runId, String turnId, JsonObject item, long createdAt) {
}
