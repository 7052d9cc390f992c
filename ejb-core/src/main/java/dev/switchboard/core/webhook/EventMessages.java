package dev.switchboard.core.webhook;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.NotificationLog.LogEntry;
import dev.switchboard.core.turn.TurnRuns.TurnRun;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The messages one log entry makes: for every endpoint of its user that hears what it is, one
 * message with a new {@code webhook-id} and the Standard Webhooks body
 * {@code {"type":…,"timestamp":…,"data":{…}}}, the data being the notification's params (with its
 * {@code seq}). A turn's end also makes its runs' events, for endpoints that hear those. A body over
 * the size cap is sent with its data cut to what identifies the event, and {@code "truncated": true}:
 * the receiver reads the rest through the API.
 */
final class EventMessages {

    /** Members kept in a truncated event's data: the ids and states that let a receiver fetch the rest. */
    private static final Set<String> KEPT_WHEN_TRUNCATED = Set.of("seq", "type", "state", "status", "kind", "code",
            "source", "started_at", "completed_at", "interrupted_at");

    private final int maxBodyBytes;

    EventMessages(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * The messages of {@code entry} for {@code endpoints} (the enabled ones of its user);
     * {@code runsOfTurn} is asked only when an endpoint hears run events of an ending turn.
     */
    List<WebhookMessage> of(LogEntry entry, List<Endpoint> endpoints, Function<String, List<TurnRun>> runsOfTurn, long now) {
        List<WebhookMessage> messages = new ArrayList<>();
        if (endpoints.isEmpty()) {
            return messages;
        }
        JsonObject params = Jsons.readObject(entry.params());
        String type = WebhookEvents.typeOf(entry.method(), params);
        if (type == null) {
            return messages;
        }
        String thread = entry.threadKey();
        String timestamp = Instant.ofEpochMilli(entry.createdAt()).toString();
        JsonObject data = Jsons.createObjectBuilder(params).add("seq", entry.seq()).build();
        for (Endpoint endpoint : endpoints) {
            if (endpoint.hears(type, thread)) {
                messages.add(message(endpoint, entry, type, timestamp, data, now));
            }
        }
        String turnId = params.getString("turn_id", null);
        if (WebhookEvents.endsTurn(type) && turnId != null
                && endpoints.stream().anyMatch(e -> WebhookEvents.RUN_TYPES.stream().anyMatch(t -> e.hears(t, thread)))) {
            for (TurnRun run : runsOfTurn.apply(turnId)) {
                String runType = WebhookEvents.runType(run.state().wire(), run.errorCode());
                if (runType == null) {
                    continue;
                }
                JsonObject runData = runData(run, turnId, thread, entry.seq());
                for (Endpoint endpoint : endpoints) {
                    if (endpoint.hears(runType, thread)) {
                        messages.add(message(endpoint, entry, runType, timestamp, runData, now));
                    }
                }
            }
        }
        return messages;
    }

    private static JsonObject runData(TurnRun run, String turnId, String thread, long seq) {
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("run_id", run.runId()).add("turn_id", turnId)
                .add("kind", run.kind().wire()).add("state", WebhookEvents.runType(run.state().wire(), run.errorCode())
                        .substring("run.".length()));
        if (thread != null) {
            b.add("thread_id", thread);
        }
        if (run.errorCode() != null) {
            JsonObjectBuilder error = Jsons.createObjectBuilder().add("code", run.errorCode());
            if (run.errorMessage() != null) {
                error.add("message", run.errorMessage());
            }
            b.add("error", error);
        }
        return b.add("seq", seq).build();
    }

    private WebhookMessage message(Endpoint endpoint, LogEntry entry, String type, String timestamp, JsonObject data,
            long now) {
        return new WebhookMessage(0, newId(), endpoint.id(), entry.threadKey() == null ? "" : entry.threadKey(), type,
                body(type, timestamp, data), entry.seq(), WebhookMessage.PENDING, 0, now, null, now, null);
    }

    /** The body; cut to the event's ids when it is over the cap. */
    String body(String type, String timestamp, JsonObject data) {
        String body = envelope(type, timestamp, data);
        if (body.getBytes(StandardCharsets.UTF_8).length <= maxBodyBytes) {
            return body;
        }
        JsonObjectBuilder cut = Jsons.createObjectBuilder();
        for (Map.Entry<String, JsonValue> member : data.entrySet()) {
            boolean scalar = member.getValue().getValueType() == JsonValue.ValueType.STRING
                    || member.getValue().getValueType() == JsonValue.ValueType.NUMBER;
            if (scalar && (member.getKey().endsWith("_id") || KEPT_WHEN_TRUNCATED.contains(member.getKey()))
                    && member.getValue().toString().length() <= 1024) {
                cut.add(member.getKey(), member.getValue());
            }
        }
        return envelope(type, timestamp, cut.add("truncated", true).build());
    }

    private static String envelope(String type, String timestamp, JsonObject data) {
        return Jsons.createObjectBuilder().add("type", type).add("timestamp", timestamp).add("data", data).build()
                .toString();
    }

    static String newId() {
        return "msg_" + UUID.randomUUID().toString().replace("-", "");
    }
}
