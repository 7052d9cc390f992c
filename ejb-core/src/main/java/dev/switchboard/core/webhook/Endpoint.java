package dev.switchboard.core.webhook;

import java.util.List;

/**
 * A user's webhook endpoint as stored: its secrets sealed ({@code secret}, and while a rotation's
 * grace lasts the one before, until {@code previousUntil}); {@code threadKey} null hears every thread.
 */
public record Endpoint(String id, String userKey, String url, String description, List<String> eventTypes,
        String threadKey, String secret, String previousSecret, Long previousUntil, boolean enabled,
        String disabledReason, long createdAt, long updatedAt) {

    /** Whether it hears {@code type} about {@code thread} (null: an event about no thread). */
    public boolean hears(String type, String thread) {
        return enabled && eventTypes.contains(type) && (threadKey == null || threadKey.equals(thread));
    }

    /**
     * The endpoint with a new secret: the one it had still signs for {@code graceSeconds} (none
     * with 0), so that a receiver can take the new one before the old stops working.
     */
    public Endpoint rotated(String sealedSecret, long graceSeconds, long now) {
        boolean grace = graceSeconds > 0;
        return new Endpoint(id, userKey, url, description, eventTypes, threadKey, sealedSecret, grace ? secret : null,
                grace ? now + graceSeconds * 1000 : null, enabled, disabledReason, createdAt, now);
    }

    /** The sealed secrets that sign a message sent at {@code now}: the current one, and the previous while it lasts. */
    public List<String> signingSecrets(long now) {
        return previousSecret != null && previousUntil != null && now < previousUntil
                ? List.of(secret, previousSecret) : List.of(secret);
    }
}
