package dev.switchboard.core.ingress;

import dev.switchboard.core.idempotency.PayloadFingerprint;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Locale;

/**
 * Holon's dedupe keys (holon-serve spec §9.3): the first matching rule wins, and every key is
 * joined with {@code :} and then trimmed of {@code :} at both ends (inner empty parts stay).
 */
public final class DedupeKeys {

    private DedupeKeys() {
    }

    /** The event's key, or {@code ""} when it has none. */
    public static String of(EventEnvelope e) {
        JsonObject payload = e.payload() != null && e.payload().getValueType() == JsonValue.ValueType.OBJECT
                ? e.payload().asJsonObject() : JsonValue.EMPTY_JSON_OBJECT;
        String delivery = GithubEvents.delivery(payload);
        if (!delivery.isEmpty()) {
            return join("github", "delivery", delivery);
        }
        String type = e.type();
        String repo = e.scope().repo();
        String kind = e.subject().kind();
        String id = e.subject().id();
        if (type.endsWith(".labeled") || type.endsWith(".unlabeled")) {
            String change = type.endsWith(".unlabeled") ? "unlabeled" : "labeled";
            String label = string(payload.get("label"), "name").toLowerCase(Locale.ROOT);
            return join("github", repo, kind, id, "label", change, label);
        }
        String commentId = string(payload.get("comment"), "id");
        String action = lastSegment(type);
        if (type.startsWith("github.issue.comment.") && !commentId.isEmpty()) {
            return join("github", repo, kind, id, "issue_comment", commentId, action);
        }
        if (type.startsWith("github.pull_request.comment.")) {
            return join("github", repo, "pull_request", id, "comment", commentId, action);
        }
        if (type.startsWith("github.pull_request_review_comment.")) {
            return join("github", repo, "pull_request", id, "review_comment", commentId, action);
        }
        String reviewId = string(payload.get("review"), "id");
        if (type.startsWith("github.pull_request_review.") && !reviewId.isEmpty()) {
            return join("github", repo, "pull_request", id, "review", reviewId, action);
        }
        if (type.isEmpty()) {
            return "";
        }
        return join(e.source(), repo, kind, id, type);
    }

    /**
     * The key as stored: keys longer than the column (long label names, long generic parts) become
     * {@code sha256:<hex>} of the key, which keeps them distinct and deterministic.
     */
    public static String storable(String key) {
        if (key.length() <= GenericEvents.MAX_DEDUPE_KEY) {
            return key;
        }
        return "sha256:" + PayloadFingerprint.of(key);
    }

    static String join(String... parts) {
        return Texts.trim(String.join(":", parts), ":");
    }

    private static String lastSegment(String type) {
        int dot = type.lastIndexOf('.');
        return dot < 0 ? type : type.substring(dot + 1);
    }

    /** A member of an object as text (numbers included), or {@code ""}. */
    static String string(JsonValue object, String name) {
        if (object == null || object.getValueType() != JsonValue.ValueType.OBJECT) {
            return "";
        }
        return GithubEvents.text(object.asJsonObject().get(name));
    }
}
