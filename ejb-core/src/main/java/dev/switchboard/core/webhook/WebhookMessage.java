package dev.switchboard.core.webhook;

/**
 * A message for one endpoint, as stored: {@code msgId} is its {@code webhook-id}; {@code lane} the
 * thread it is about ('' for none), within which an endpoint's messages go out in order.
 */
public record WebhookMessage(long id, String msgId, String endpointId, String lane, String eventType, String payload,
        long seq, String state, int attempts, long dueAt, Long sendingUntil, long createdAt, Long endedAt) {

    public static final String PENDING = "pending";
    public static final String DELIVERED = "delivered";
    public static final String FAILED = "failed";

    public boolean isPending() {
        return PENDING.equals(state);
    }

    /** Being sent by an instance at {@code now}. */
    public boolean isSending(long now) {
        return isPending() && sendingUntil != null && sendingUntil > now;
    }
}
