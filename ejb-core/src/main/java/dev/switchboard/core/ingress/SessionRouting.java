package dev.switchboard.core.ingress;

import dev.switchboard.core.thread.ThreadKinds;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * Which lane (thread key) an ingress event runs in: Holon's {@code routeEventToSessionKey}
 * (holon-serve spec §10.1), first match wins.
 */
public final class SessionRouting {

    public static final String MAIN = "main";

    private SessionRouting() {
    }

    public static String route(EventEnvelope e) {
        if (e.payload() != null && e.payload().getValueType() == JsonValue.ValueType.OBJECT) {
            JsonObject payload = e.payload().asJsonObject();
            String explicit = GithubEvents.text(payload.get("session_key")).strip();
            if (explicit.isEmpty()) {
                explicit = GithubEvents.text(payload.get("thread_id")).strip();
            }
            if (!explicit.isEmpty()) {
                return explicit; // verbatim: no prefix, no sanitising
            }
        }
        if (!e.scope().partition().isBlank()) {
            return ThreadKinds.EVENT_PREFIX + sanitize(e.scope().partition());
        }
        if (!e.scope().repo().isBlank()) {
            return ThreadKinds.EVENT_PREFIX + sanitize(e.scope().repo());
        }
        if (!e.source().isEmpty() && !e.subject().kind().isEmpty() && !e.subject().id().isEmpty()) {
            return ThreadKinds.EVENT_PREFIX + sanitize(e.source() + ":" + e.subject().kind() + ":" + e.subject().id());
        }
        if (!e.source().isEmpty() && !e.type().isEmpty()) {
            return ThreadKinds.EVENT_PREFIX + sanitize(e.source() + ":" + e.type());
        }
        return MAIN;
    }

    /**
     * Keeps letters, digits and {@code - _ . : /}; every other character becomes {@code _}; then
     * trims spaces and leading/trailing {@code _}; empty becomes {@code unknown}.
     */
    public static String sanitize(String value) {
        StringBuilder b = new StringBuilder(value.length());
        value.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' || c == ':' || c == '/') {
                b.appendCodePoint(c);
            } else {
                b.append('_');
            }
        });
        String s = Texts.trim(b.toString().strip(), "_");
        return s.isEmpty() ? "unknown" : s;
    }
}
