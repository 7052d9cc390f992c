package dev.switchboard.core.ingress;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * A pre-normalised envelope from any source (holon-serve spec §8, §9.2a): validated member by
 * member, then filled as Holon's {@code InjectEvent} does — a missing {@code id}, {@code at},
 * {@code scope.repo} (the repo hint) and {@code dedupe_key} (the generic rule). Unlike Holon, a
 * malformed envelope is refused with the field at fault instead of being dropped later, and
 * {@code source} is required: every record must say where it came from.
 */
public final class GenericEvents {

    static final int MAX_SOURCE = 64;
    static final int MAX_TYPE = 256;
    static final int MAX_SCOPE_MEMBER = 256;
    static final int MAX_SUBJECT_MEMBER = 128;
    static final int MAX_DEDUPE_KEY = 512;
    static final int MAX_SESSION_KEY = 512;

    private GenericEvents() {
    }

    /** True when {@code body} is meant as an envelope: it has a non-empty string {@code type}. */
    public static boolean isEnvelope(JsonObject body) {
        JsonValue type = body.get("type");
        return type instanceof JsonString s && !s.getString().isBlank();
    }

    public static EventEnvelope parse(JsonObject body, String repoHint, String freshId, Instant now) {
        String type = required(body, "type", MAX_TYPE);
        String source = required(body, "source", MAX_SOURCE);
        String id = optional(body, "id", 64);
        if (!id.isEmpty() && !EventEnvelope.ID.matcher(id).matches()) {
            throw new InvalidEventException("id", "id must start with a letter or digit and contain only letters, "
                    + "digits and . _ : -");
        }
        Instant at = instant(body.get("at"));
        JsonObject scope = object(body, "scope");
        String repo = optional(scope, "repo", MAX_SCOPE_MEMBER, "scope.");
        EventEnvelope.Scope parsedScope = new EventEnvelope.Scope(optional(scope, "tenant", MAX_SCOPE_MEMBER, "scope."),
                optional(scope, "partition", MAX_SCOPE_MEMBER, "scope."),
                repo.isEmpty() && repoHint != null ? repoHint : repo,
                optional(scope, "workspace_ref", MAX_SCOPE_MEMBER, "scope."),
                optional(scope, "workspace_path", MAX_SCOPE_MEMBER, "scope."));
        JsonObject subject = object(body, "subject");
        EventEnvelope.Subject parsedSubject = new EventEnvelope.Subject(
                optional(subject, "kind", MAX_SUBJECT_MEMBER, "subject."),
                optionalText(subject, "id", MAX_SUBJECT_MEMBER, "subject."));
        String dedupeKey = optional(body, "dedupe_key", MAX_DEDUPE_KEY);
        JsonValue payload = body.get("payload");
        EventEnvelope envelope = new EventEnvelope(id.isEmpty() ? freshId : id, source, type, at == null ? now : at,
                parsedScope, parsedSubject, dedupeKey, payload);
        if (dedupeKey.isEmpty()) {
            envelope = envelope.withDedupeKey(DedupeKeys.storable(DedupeKeys.of(envelope)));
        }
        checkRoute(envelope, "payload.session_key");
        return envelope;
    }

    /** The session key the envelope routes to must fit its column; {@code field} names what to shorten. */
    static void checkRoute(EventEnvelope envelope, String field) {
        String route = SessionRouting.route(envelope);
        if (route.length() > MAX_SESSION_KEY) {
            throw new InvalidEventException(field, "the session key may be at most " + MAX_SESSION_KEY + " characters");
        }
    }

    private static String required(JsonObject o, String name, int max) {
        String value = optional(o, name, max);
        if (value.isBlank()) {
            throw new InvalidEventException(name, name + " is required");
        }
        return value;
    }

    private static String optional(JsonObject o, String name, int max) {
        return optional(o, name, max, "");
    }

    private static String optional(JsonObject o, String name, int max, String prefix) {
        JsonValue v = o.get(name);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return "";
        }
        if (!(v instanceof JsonString s)) {
            throw new InvalidEventException(prefix + name, prefix + name + " must be a string");
        }
        return bounded(s.getString().strip(), max, prefix + name);
    }

    /** A string or an integer (subject ids are often numbers). */
    private static String optionalText(JsonObject o, String name, int max, String prefix) {
        JsonValue v = o.get(name);
        if (v != null && v.getValueType() == JsonValue.ValueType.NUMBER) {
            String text = GithubEvents.text(v);
            return bounded(text, max, prefix + name);
        }
        return optional(o, name, max, prefix);
    }

    static String bounded(String value, int max, String field) {
        if (value.length() > max) {
            throw new InvalidEventException(field, field + " may be at most " + max + " characters");
        }
        return value;
    }

    private static JsonObject object(JsonObject o, String name) {
        JsonValue v = o.get(name);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidEventException(name, name + " must be an object");
        }
        return v.asJsonObject();
    }

    private static Instant instant(JsonValue v) {
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (v instanceof JsonString s) {
            if (s.getString().isBlank()) {
                return null;
            }
            try {
                return OffsetDateTime.parse(s.getString().strip()).toInstant();
            } catch (DateTimeParseException e) {
                // answered below
            }
        }
        throw new InvalidEventException("at", "at must be an RFC 3339 time, e.g. 2026-02-22T08:56:17Z");
    }
}
