package dev.switchboard.core.ingress;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * Holon's normalised event (holon-serve spec §8). {@code scope} and {@code subject} members are
 * empty strings when absent; {@code dedupeKey} is empty when the event has none; {@code payload}
 * may be null.
 */
public record EventEnvelope(String id, String source, String type, Instant at, Scope scope, Subject subject,
        String dedupeKey, JsonValue payload) {

    /** An event id: a client's ({@code id}) or a generated {@code evt_…}; record ids have the same shape. */
    public static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");

    /** Where the event belongs. */
    public record Scope(String tenant, String partition, String repo, String workspaceRef, String workspacePath) {

        public static final Scope EMPTY = new Scope("", "", "", "", "");

        public Scope {
            tenant = nonNull(tenant);
            partition = nonNull(partition);
            repo = nonNull(repo);
            workspaceRef = nonNull(workspaceRef);
            workspacePath = nonNull(workspacePath);
        }

        public Scope withRepo(String repo) {
            return new Scope(tenant, partition, repo, workspaceRef, workspacePath);
        }
    }

    /** What the event is about, e.g. {@code issue/527}. */
    public record Subject(String kind, String id) {

        public static final Subject EMPTY = new Subject("", "");

        public Subject {
            kind = nonNull(kind);
            id = nonNull(id);
        }
    }

    public EventEnvelope {
        id = nonNull(id);
        source = nonNull(source);
        type = nonNull(type);
        scope = scope == null ? Scope.EMPTY : scope;
        subject = subject == null ? Subject.EMPTY : subject;
        dedupeKey = nonNull(dedupeKey);
    }

    public EventEnvelope withId(String newId) {
        return new EventEnvelope(newId, source, type, at, scope, subject, dedupeKey, payload);
    }

    public EventEnvelope withDedupeKey(String key) {
        return new EventEnvelope(id, source, type, at, scope, subject, key, payload);
    }

    /** The envelope's JSON (spec §8): empty members omitted, {@code scope} and {@code subject} always present. */
    public JsonObject toJson() {
        JsonObjectBuilder scopeJson = Jsons.createObjectBuilder();
        put(scopeJson, "tenant", scope.tenant());
        put(scopeJson, "partition", scope.partition());
        put(scopeJson, "repo", scope.repo());
        put(scopeJson, "workspace_ref", scope.workspaceRef());
        put(scopeJson, "workspace_path", scope.workspacePath());
        JsonObjectBuilder subjectJson = Jsons.createObjectBuilder();
        put(subjectJson, "kind", subject.kind());
        put(subjectJson, "id", subject.id());
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("id", id)
                .add("source", source)
                .add("type", type)
                .add("at", at == null ? "" : at.toString())
                .add("scope", scopeJson)
                .add("subject", subjectJson);
        put(b, "dedupe_key", dedupeKey);
        if (payload != null && payload.getValueType() != JsonValue.ValueType.NULL) {
            b.add("payload", payload);
        }
        return b.build();
    }

    private static void put(JsonObjectBuilder b, String name, String value) {
        if (value != null && !value.isEmpty()) {
            b.add(name, value);
        }
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
