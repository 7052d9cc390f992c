package dev.switchboard.core.lifecycle;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Instant;

/**
 * The params of Holon's lifecycle notifications (holon-serve spec §5), built from plain values.
 * Times are UTC RFC3339; optional members are omitted when empty.
 */
public final class Lifecycle {

    /** Holon's progress phrasing for an interactive request (spec §11.6). */
    public static final String LABEL = "interactive user request";

    private Lifecycle() {
    }

    public static String time(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    public static JsonObject thread(String type, String state, String threadKey, Instant at) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("thread_id", threadKey)
                .add("type", type)
                .add("state", state);
        b.add(type.equals("started") ? "started_at" : type + "_at", at.toString());
        return b.build();
    }

    public static JsonObject turnStarted(String turnId, String threadKey, long startedAt) {
        return Jsons.createObjectBuilder()
                .add("turn_id", turnId)
                .add("type", "started")
                .add("state", "active")
                .add("thread_id", threadKey)
                .add("started_at", time(startedAt))
                .build();
    }

    public static JsonObject progress(String turnId, String threadKey, String state, String message, String runId,
            Instant at, long startedAt) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("turn_id", turnId)
                .add("thread_id", threadKey)
                .add("state", state)
                .add("message", message);
        if (runId != null) {
            b.add("event_id", runId);
        }
        return b.add("updated_at", at.toString())
                .add("elapsed_ms", Math.max(0, at.toEpochMilli() - startedAt))
                .build();
    }

    public static String progressMessage(String state, long elapsedMs) {
        return switch (state) {
            case "queued" -> "Queued: waiting to process " + LABEL;
            case "cancel_requested" -> "Cancel requested: waiting for controller to stop current work";
            case "running" -> runningPhase(elapsedMs) + ": " + LABEL;
            default -> "Waiting for " + LABEL + " status update";
        };
    }

    static String runningPhase(long elapsedMs) {
        if (elapsedMs < 6_000) {
            return "Understanding request and scanning relevant code";
        }
        if (elapsedMs < 20_000) {
            return "Inspecting files and planning code changes";
        }
        if (elapsedMs < 60_000) {
            return "Implementing changes and running checks";
        }
        return "Verifying results and preparing response";
    }

    /**
     * Text an engine produced since the run's last delta ({@code item/delta}): a preview — the
     * reply's {@code item/created} carries the whole text; {@code attempt} tells a retried run's
     * deltas from its earlier attempt's, {@code part} numbers an attempt's deltas (as kept in
     * {@code run_text}).
     */
    public static JsonObject itemDelta(String threadKey, String turnId, String runId, int attempt, int part,
            String delta, Instant at) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("type", "delta")
                .add("thread_id", threadKey);
        if (turnId != null) {
            b.add("turn_id", turnId);
        }
        return b.add("run_id", runId)
                .add("attempt", attempt)
                .add("part", part)
                .add("delta", delta)
                .add("timestamp", at.toString())
                .build();
    }

    /** A user echo ({@code status active}) or assistant reply ({@code status completed}). */
    public static JsonObject item(String itemId, JsonObject content, String status, String threadKey, String turnId,
            Instant at) {
        return Jsons.createObjectBuilder()
                .add("item_id", itemId)
                .add("type", "created")
                .add("status", status)
                .add("content", content)
                .add("timestamp", at.toString())
                .add("thread_id", threadKey)
                .add("turn_id", turnId)
                .build();
    }

    /**
     * A {@code session.announce} summary on {@code main} (spec §5, [SK]): an item without a turn whose
     * content is a {@code system_announce}; {@code action} is omitted when empty, {@code decision_raw}
     * (the reply's own word for a decision outside the closed enum, H17) when null.
     */
    public static JsonObject announceItem(String itemId, String eventId, String source, String eventType,
            String sourceSessionKey, String decision, String decisionRaw, String action, String text, Instant at) {
        JsonObjectBuilder content = Jsons.createObjectBuilder()
                .add("type", "system_announce")
                .add("event_id", eventId)
                .add("source", source)
                .add("event_type", eventType)
                .add("source_session_key", sourceSessionKey)
                .add("decision", decision);
        if (decisionRaw != null) {
            content.add("decision_raw", decisionRaw);
        }
        if (action != null && !action.isEmpty()) {
            content.add("action", action);
        }
        content.add("title", "Event processed")
                .add("text", text == null || text.isEmpty() ? "event processed" : text)
                .add("created_at", at.toString());
        return Jsons.createObjectBuilder()
                .add("item_id", itemId)
                .add("type", "created")
                .add("status", "completed")
                .add("content", content)
                .add("timestamp", at.toString())
                .add("thread_id", "main")
                .build();
    }

    /** A user's plain-text message item, as RPC input normalises it. */
    public static JsonObject userMessage(String text) {
        return Jsons.createObjectBuilder()
                .add("type", "message").add("role", "user")
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder()
                        .add("type", "input_text").add("text", text)))
                .build();
    }

    public static JsonObject assistantMessage(String text) {
        return Jsons.createObjectBuilder()
                .add("type", "message")
                .add("role", "assistant")
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder()
                        .add("type", "text").add("text", text)))
                .build();
    }

    public static JsonObject turnCompleted(String turnId, String threadKey, long startedAt, Instant completedAt,
            String message) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("turn_id", turnId)
                .add("type", "completed")
                .add("state", "completed")
                .add("thread_id", threadKey)
                .add("started_at", time(startedAt))
                .add("completed_at", completedAt.toString());
        if (message != null && !message.isEmpty()) {
            b.add("message", message);
        }
        return b.build();
    }

    /**
     * A turn ended without success. {@code status} is {@code interrupted} or {@code failed} (H6:
     * failures carry {@code error}); {@code threadKey} is null for an untargeted interrupt.
     */
    public static JsonObject turnInterrupted(String turnId, String threadKey, long startedAt, Instant at,
            String status, String message, String mergedInto) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("turn_id", turnId)
                .add("type", "interrupted")
                .add("state", "interrupted");
        if (threadKey != null) {
            b.add("thread_id", threadKey);
        }
        b.add("started_at", time(startedAt))
                .add("interrupted_at", at.toString())
                .add("status", status);
        if (message != null && !message.isEmpty()) {
            b.add("message", message);
        }
        if ("failed".equals(status)) {
            b.add("error", Jsons.createObjectBuilder().add("message", message == null ? "failed" : message));
        }
        if (mergedInto != null) {
            b.add("merged_into", mergedInto);
        }
        return b.build();
    }

    /** The reply text of an engine output ({@code {"text": ...}}), or null. */
    public static String replyText(String outputJson) {
        if (outputJson == null || outputJson.isBlank()) {
            return null;
        }
        try (JsonReader reader = Jsons.createReader(new StringReader(outputJson))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                return null;
            }
            JsonObject output = value.asJsonObject();
            JsonValue text = output.get("text");
            return text != null && text.getValueType() == JsonValue.ValueType.STRING ? output.getString("text") : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
