package dev.switchboard.core.webhook;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a client asks of an endpoint (a new one, or changes to one), read from the JSON object both
 * doors receive, so REST and JSON-RPC refuse alike. A member not given is {@code null} (unchanged);
 * {@code clearThread} says that {@code thread_id} was given as null (hear every thread again).
 */
public record EndpointChange(String url, List<String> eventTypes, String threadKey, boolean clearThread,
        String description, Boolean enabled) {

    private static final Set<String> MEMBERS = Set.of("url", "event_types", "thread_id", "description", "enabled");
    static final int MAX_THREAD_KEY = 512;
    static final int MAX_DESCRIPTION = 512;

    /** Why an endpoint its user disabled is disabled. */
    static final String DISABLED_BY_USER = "disabled by the user";

    /**
     * A new endpoint as this create asks for it: every event type when none is named, enabled
     * unless {@code enabled} is false.
     */
    Endpoint created(String id, String userKey, String allowedUrl, String sealedSecret, long now) {
        boolean on = enabled == null || enabled;
        return new Endpoint(id, userKey, allowedUrl, description, eventTypes == null ? WebhookEvents.ALL : eventTypes,
                threadKey, sealedSecret, null, null, on, on ? null : DISABLED_BY_USER, now, now);
    }

    /**
     * The endpoint as this update leaves it: what is named changes, the rest stays; enabling clears
     * why it was disabled, and disabling it says that its user did. {@code allowedUrl} is the new
     * URL once the address policy allowed it (null: unchanged).
     */
    Endpoint applyTo(Endpoint e, String allowedUrl, long now) {
        boolean on = enabled == null ? e.enabled() : enabled;
        String reason = on ? null : enabled == Boolean.FALSE ? DISABLED_BY_USER : e.disabledReason();
        return new Endpoint(e.id(), e.userKey(), allowedUrl == null ? e.url() : allowedUrl,
                description == null ? e.description() : description, eventTypes == null ? e.eventTypes() : eventTypes,
                clearThread ? null : threadKey == null ? e.threadKey() : threadKey,
                e.secret(), e.previousSecret(), e.previousUntil(), on, reason, e.createdAt(), now);
    }

    /** Reads a create ({@code url} required) or an update; {@code extra} names members the door itself uses (an id). */
    public static EndpointChange parse(JsonObject body, boolean create, Set<String> extra) {
        for (String name : body.keySet()) {
            if (!MEMBERS.contains(name) && !extra.contains(name)) {
                throw WebhookException.invalid("invalid_body", "unknown member " + name + "; known: description,"
                        + " enabled, event_types, thread_id, url");
            }
        }
        String url = string(body, "url", AddressPolicy.MAX_URL_LENGTH);
        if (create && url == null) {
            throw WebhookException.invalid("invalid_url", "url is required");
        }
        List<String> types = eventTypes(body);
        boolean clearThread = body.containsKey("thread_id") && body.isNull("thread_id");
        String thread = string(body, "thread_id", MAX_THREAD_KEY);
        if (thread != null && thread.isBlank()) {
            throw WebhookException.invalid("invalid_thread_id", "thread_id must not be blank");
        }
        String description = string(body, "description", MAX_DESCRIPTION);
        Boolean enabled = null;
        if (body.containsKey("enabled")) {
            JsonValue v = body.get("enabled");
            if (v != JsonValue.TRUE && v != JsonValue.FALSE) {
                throw WebhookException.invalid("invalid_enabled", "enabled must be true or false");
            }
            enabled = v == JsonValue.TRUE;
        }
        return new EndpointChange(url, types, thread, clearThread, description, enabled);
    }

    private static String string(JsonObject body, String name, int max) {
        if (!body.containsKey(name) || body.isNull(name)) {
            return null;
        }
        if (!(body.get(name) instanceof JsonString s)) {
            throw WebhookException.invalid("invalid_" + name, name + " must be a string");
        }
        String value = s.getString();
        if (value.length() > max) {
            throw WebhookException.invalid("invalid_" + name, name + " is longer than " + max + " characters");
        }
        if (value.indexOf('\u0000') >= 0) {
            throw WebhookException.invalid("invalid_" + name, name + " must not contain NUL");
        }
        return value;
    }

    private static List<String> eventTypes(JsonObject body) {
        if (!body.containsKey("event_types") || body.isNull("event_types")) {
            return null;
        }
        if (!(body.get("event_types") instanceof JsonArray array) || array.isEmpty()) {
            throw WebhookException.invalid("invalid_event_types", "event_types must be a non-empty array of: "
                    + String.join(", ", WebhookEvents.ALL));
        }
        Set<String> types = new LinkedHashSet<>();
        for (JsonValue v : array) {
            if (!(v instanceof JsonString s) || !WebhookEvents.isType(s.getString())) {
                throw WebhookException.invalid("invalid_event_types", "unknown event type " + v + "; known: "
                        + String.join(", ", WebhookEvents.ALL));
            }
            types.add(s.getString());
        }
        return new ArrayList<>(types);
    }
}
