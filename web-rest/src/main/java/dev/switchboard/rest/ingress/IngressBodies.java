package dev.switchboard.rest.ingress;

import dev.switchboard.core.ingress.EventEnvelope;
import dev.switchboard.core.ingress.EventOutcome;
import dev.switchboard.core.ingress.GenericEvents;
import dev.switchboard.core.ingress.IngressService;
import dev.switchboard.core.input.InvalidJsonException;
import dev.switchboard.core.input.StorableText;
import dev.switchboard.core.input.StrictJson;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.errors.ApiException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;

/** What both ingress endpoints share: reading a body as a JSON object, envelopes, the 202 answer. */
final class IngressBodies {

    private IngressBodies() {
    }

    /**
     * The body as a JSON object, read strictly ({@link StrictJson}): {@code 400 empty_body},
     * {@code 400 invalid_json}, or {@code 400 invalid_text} for a string that cannot be stored.
     */
    static JsonObject object(byte[] bytes) {
        if (bytes.length == 0) {
            throw new ApiException(400, "empty_body", "empty body");
        }
        JsonValue parsed;
        try {
            parsed = StrictJson.parse(bytes);
        } catch (InvalidJsonException e) {
            throw new ApiException(400, "invalid_json", "the body is not JSON: " + e.getMessage());
        }
        if (parsed.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new ApiException(400, "invalid_json", "the body must be a JSON object");
        }
        StorableText.firstProblem(parsed, "").ifPresent(problem -> {
            throw JsonBody.invalidText(problem);
        });
        return parsed.asJsonObject();
    }

    /**
     * A generic envelope, validated and filled; {@code 400 invalid_event} ({@link IngressErrorMappers.InvalidEvent})
     * names the field at fault.
     */
    static EventEnvelope envelope(JsonObject body, String repoHint) {
        return GenericEvents.parse(body, repoHint, IngressService.newEventId(), Instant.now());
    }

    /** {@code 202} with what became of the event. */
    static Response accepted(EventOutcome outcome) {
        JsonObjectBuilder answer = Jsons.createObjectBuilder()
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
