package dev.switchboard.core.webhook;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;

/** The endpoint, message and attempt objects both doors answer with (docs/api.md, "Webhooks"). */
public final class WebhookJson {

    private WebhookJson() {
    }

    /** An endpoint; {@code secret} (in clear) only in the answer of a create or a rotation. */
    public static JsonObject endpoint(Endpoint e, String secret, long now) {
        JsonArrayBuilder types = Jsons.createArrayBuilder();
        e.eventTypes().forEach(types::add);
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("id", e.id()).add("url", e.url());
        if (e.description() != null) {
            b.add("description", e.description());
        }
        b.add("event_types", types);
        if (e.threadKey() != null) {
            b.add("thread_id", e.threadKey());
        }
        b.add("enabled", e.enabled());
        if (e.disabledReason() != null) {
            b.add("disabled_reason", e.disabledReason());
        }
        b.add("created_at", time(e.createdAt())).add("updated_at", time(e.updatedAt()));
        if (e.previousUntil() != null && e.previousUntil() > now) {
            b.add("previous_secret_expires_at", time(e.previousUntil()));
        }
        if (secret != null) {
            b.add("secret", secret);
        }
        return b.build();
    }

    public static JsonObject message(WebhookMessage m, long now) {
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("id", m.msgId()).add("event_type", m.eventType());
        if (!m.lane().isEmpty()) {
            b.add("thread_id", m.lane());
        }
        b.add("state", m.isSending(now) ? "sending" : m.state()).add("attempts", m.attempts())
                .add("created_at", time(m.createdAt()));
        if (m.isPending() && !m.isSending(now)) {
            b.add("next_attempt_at", time(m.dueAt()));
        }
        if (m.endedAt() != null) {
            b.add("ended_at", time(m.endedAt()));
        }
        return b.build();
    }

    public static JsonObject attempt(WebhookAttempt a) {
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("message_id", a.msgId()).add("attempt", a.attempt())
                .add("at", time(a.at()));
        if (a.status() != null) {
            b.add("status", a.status());
        }
        b.add("latency_ms", a.latencyMs()).add("outcome", a.outcome());
        if (a.response() != null) {
            b.add("response", a.response());
        }
        return b.build();
    }

    private static String time(long ms) {
        return Instant.ofEpochMilli(ms).toString();
    }
}
