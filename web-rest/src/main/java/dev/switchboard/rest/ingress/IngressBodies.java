package dev.switchboard.rest.ingress;

import dev.switchboard.core.ingress.EventEnvelope;
import dev.switchboard.core.ingress.GenericEvents;
import dev.switchboard.core.ingress.IngressLedger;
import dev.switchboard.core.ingress.IngressService;
import dev.switchboard.core.ingress.InvalidEventException;
import dev.switchboard.rest.errors.ApiException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.time.Instant;

/** What both ingress endpoints share: reading a body as a JSON object, envelopes, the 202 answer. */
final class IngressBodies {

    private IngressBodies() {
    }

    /** The body as a JSON object: {@code 400 empty_body} or {@code 400 invalid_json} otherwise. */
    static JsonObject object(byte[] bytes) {
        if (bytes.length == 0) {
            throw new ApiException(400, "empty_body", "empty body");
        }
        JsonValue parsed;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            parsed = reader.readValue();
        } catch (JsonParsingException e) {
            throw new ApiException(400, "invalid_json", "the body is not JSON");
        }
        if (parsed.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new ApiException(400, "invalid_json", "the body must be a JSON object");
        }
        return parsed.asJsonObject();
    }

    /** A generic envelope, validated and filled; {@code 400 invalid_event} names the field at fault. */
    static EventEnvelope envelope(JsonObject body, String repoHint) {
        try {
            return GenericEvents.parse(body, repoHint, IngressService.newEventId(), Instant.now());
        } catch (InvalidEventException e) {
            throw new ApiException(400, "invalid_event", e.getMessage());
        }
    }

    /** {@code 202} with what became of the event. */
    static Response accepted(IngressLedger.Outcome outcome) {
        JsonObjectBuilder answer = Json.createObjectBuilder()
                .add("event_id", outcome.eventId())
                .add("status", outcome.status())
                .add("session_key", outcome.sessionKey());
        if (outcome.runId() != null) {
            answer.add("run_id", outcome.runId());
        }
        if (outcome.turnId() != null) {
            answer.add("turn_id", outcome.turnId());
        }
        return Response.accepted(answer.build().toString()).type(MediaType.APPLICATION_JSON).build();
    }
}
