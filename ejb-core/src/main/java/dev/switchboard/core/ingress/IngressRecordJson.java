package dev.switchboard.core.ingress;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;

/**
 * The ingress records as the records API shows them: Holon's record shapes (holon-serve spec §14)
 * plus the correlation keys an operator follows ({@code session_key}, {@code run_id},
 * {@code turn_id}). Plain.
 */
final class IngressRecordJson {

    private IngressRecordJson() {
    }

    /** The envelope as received (§8), with the event's status and correlation keys. */
    static JsonObject event(IngressEvent e) {
        JsonObjectBuilder b = Jsons.createObjectBuilder(Jsons.readObject(e.envelope()))
                .add("status", e.status())
                .add("session_key", e.sessionKey())
                .add("received_at", time(e.receivedAt()));
        correlate(b, e);
        return b.build();
    }

    /** {@code {id, event_id, type, reason?, skipped?, created_at}} plus correlation keys. */
    static JsonObject decision(IngressRecords.Decision d) {
        IngressEvent e = d.event();
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("id", d.id())
                .add("event_id", d.eventId())
                .add("type", d.type());
        if (d.reason() != null) {
            b.add("reason", d.reason());
        }
        if (d.skipped()) {
            b.add("skipped", true);
        }
        b.add("created_at", time(d.createdAt())).add("session_key", e.sessionKey());
        correlate(b, e);
        return b.build();
    }

    /**
     * {@code {id, event_id, status, message?, started_at, ended_at}} plus correlation keys; an
     * {@code accepted} hand-off ends when it starts, as in Holon.
     */
    static JsonObject action(IngressRecords.Action a) {
        IngressEvent e = a.event();
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("id", a.id())
                .add("event_id", a.eventId())
                .add("status", a.status());
        if (a.message() != null) {
            b.add("message", a.message());
        }
        b.add("started_at", time(a.startedAt()))
                .add("ended_at", time(a.endedAt() == null ? a.startedAt() : a.endedAt()))
                .add("session_key", e.sessionKey());
        if (a.runId() != null) {
            b.add("run_id", a.runId());
        }
        if (e.turnId() != null && a.runId() != null && a.runId().equals(e.runId())) {
            b.add("turn_id", e.turnId());
        }
        return b.build();
    }

    private static void correlate(JsonObjectBuilder b, IngressEvent e) {
        if (e.runId() != null) {
            b.add("run_id", e.runId());
        }
        if (e.turnId() != null) {
            b.add("turn_id", e.turnId());
        }
    }

    private static String time(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }
}
