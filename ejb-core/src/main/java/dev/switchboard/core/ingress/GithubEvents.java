package dev.switchboard.core.ingress;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Normalises a GitHub webhook delivery to an {@link EventEnvelope} (holon-serve spec §9.2, with
 * Switchboard's {@code check_suite} correction H16). Pure: the caller supplies the id and the time.
 */
public final class GithubEvents {

    private static final Set<String> COMMENT_ACTIONS = Set.of("created", "edited", "deleted");
    private static final Set<String> REVIEW_ACTIONS = Set.of("submitted", "edited", "dismissed");

    private GithubEvents() {
    }

    /** The body with the request's {@code X-GitHub-Event}/{@code X-GitHub-Delivery} merged in (overwriting). */
    public static JsonObject withHeaders(JsonObject body, String event, String delivery) {
        JsonObjectBuilder b = Jsons.createObjectBuilder(body);
        if (event != null && !event.isBlank()) {
            b.add("x_github_event", event);
        }
        if (delivery != null && !delivery.isBlank()) {
            b.add("x_github_delivery", delivery);
        }
        return b.build();
    }

    /**
     * Normalises a raw delivery; throws {@link UnsupportedEventException} for what Holon drops and
     * {@link InvalidEventException} for a value too long to store.
     */
    public static EventEnvelope normalise(JsonObject body, String repoHint, String id, Instant now) {
        String event = eventName(body);
        if (event.isEmpty()) {
            throw new UnsupportedEventException("missing GitHub event name");
        }
        String repo = text(objectAt(body, "repository").get("full_name"));
        if (repo.isEmpty()) {
            repo = repoHint == null ? "" : repoHint;
        }
        String action = text(body.get("action")).toLowerCase(Locale.ROOT);
        String kind;
        String number;
        String type;
        switch (event) {
            case "issues" -> {
                kind = issueKind(body);
                number = numberOr0(objectAt(body, "issue").get("number"));
                type = "github." + kind + "." + action;
            }
            case "issue_comment" -> {
                require(COMMENT_ACTIONS, action, event);
                kind = issueKind(body);
                number = numberOr0(objectAt(body, "issue").get("number"));
                type = "github." + kind + ".comment." + action;
            }
            case "pull_request" -> {
                kind = "pull_request";
                number = pullRequestNumber(body);
                type = "github.pull_request." + action;
            }
            case "pull_request_review_comment" -> {
                require(COMMENT_ACTIONS, action, event);
                kind = "pull_request";
                number = pullRequestNumber(body);
                type = "github.pull_request_review_comment." + action;
            }
            case "pull_request_review" -> {
                require(REVIEW_ACTIONS, action, event);
                kind = "pull_request";
                number = pullRequestNumber(body);
                type = "github.pull_request_review." + action;
            }
            case "check_suite" -> {
                String pr = firstPullRequest(objectAt(body, "check_suite").get("pull_requests"));
                if (pr.isEmpty()) {
                    pr = firstPullRequest(body.get("pull_requests"));
                }
                kind = pr.isEmpty() ? "" : "pull_request";
                number = pr;
                type = "github.check_suite." + action;
            }
            default -> throw new UnsupportedEventException("unsupported event type");
        }
        // Each value is stored in a column of its own size: too long is refused, never truncated.
        GenericEvents.bounded(repo, GenericEvents.MAX_SCOPE_MEMBER, "repository.full_name");
        GenericEvents.bounded(type, GenericEvents.MAX_TYPE, "action");
        GenericEvents.bounded(number, GenericEvents.MAX_SUBJECT_MEMBER, "number");
        EventEnvelope envelope = new EventEnvelope(id, "github", type, now, EventEnvelope.Scope.EMPTY.withRepo(repo),
                new EventEnvelope.Subject(kind, number), "", body);
        GenericEvents.checkRoute(envelope, "repository.full_name");
        return envelope.withDedupeKey(DedupeKeys.storable(DedupeKeys.of(envelope)));
    }

    /** {@code event}, else {@code x_github_event}, else {@code headers["X-GitHub-Event"]} (any case). */
    static String eventName(JsonObject body) {
        String name = text(body.get("event"));
        if (name.isEmpty()) {
            name = text(body.get("x_github_event"));
        }
        if (name.isEmpty()) {
            name = header(body, "x-github-event");
        }
        return name.strip();
    }

    /** {@code x_github_delivery}, else {@code headers["X-GitHub-Delivery"]} (any case). */
    static String delivery(JsonObject body) {
        String delivery = text(body.get("x_github_delivery"));
        return delivery.isEmpty() ? header(body, "x-github-delivery") : delivery.strip();
    }

    private static String header(JsonObject body, String lowerName) {
        JsonObject headers = objectAt(body, "headers");
        for (Map.Entry<String, JsonValue> h : headers.entrySet()) {
            if (h.getKey().toLowerCase(Locale.ROOT).equals(lowerName)) {
                JsonValue v = h.getValue();
                if (v.getValueType() == JsonValue.ValueType.ARRAY) {
                    JsonArray values = v.asJsonArray();
                    return values.isEmpty() ? "" : text(values.get(0)).strip();
                }
                return text(v).strip();
            }
        }
        return "";
    }

    private static String issueKind(JsonObject body) {
        JsonValue pr = objectAt(body, "issue").get("pull_request");
        return pr != null && pr.getValueType() == JsonValue.ValueType.OBJECT ? "pull_request" : "issue";
    }

    private static String pullRequestNumber(JsonObject body) {
        String top = text(body.get("number"));
        return top.isEmpty() ? numberOr0(objectAt(body, "pull_request").get("number")) : top;
    }

    private static String firstPullRequest(JsonValue list) {
        if (list == null || list.getValueType() != JsonValue.ValueType.ARRAY || list.asJsonArray().isEmpty()) {
            return "";
        }
        JsonValue first = list.asJsonArray().get(0);
        return first.getValueType() == JsonValue.ValueType.OBJECT ? text(first.asJsonObject().get("number")) : "";
    }

    private static void require(Set<String> allowed, String action, String event) {
        if (!allowed.contains(action)) {
            throw new UnsupportedEventException("unsupported " + event + " action: " + action);
        }
    }

    private static String numberOr0(JsonValue value) {
        String s = text(value);
        return s.isEmpty() ? "0" : s;
    }

    static JsonObject objectAt(JsonObject body, String name) {
        JsonValue v = body.get(name);
        return v != null && v.getValueType() == JsonValue.ValueType.OBJECT ? v.asJsonObject() : JsonValue.EMPTY_JSON_OBJECT;
    }

    /** Strings as they are, integral numbers without a fraction, anything else {@code ""}. */
    static String text(JsonValue value) {
        if (value == null) {
            return "";
        }
        return switch (value.getValueType()) {
            case STRING -> ((JsonString) value).getString();
            case NUMBER -> ((JsonNumber) value).isIntegral() ? ((JsonNumber) value).bigIntegerValue().toString()
                    : ((JsonNumber) value).toString();
            default -> "";
        };
    }
}
