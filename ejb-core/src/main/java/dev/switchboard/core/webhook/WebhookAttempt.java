package dev.switchboard.core.webhook;

/**
 * One attempt of the delivery log: the HTTP status (null when no answer came), the time to the
 * answer, what followed ({@code delivered}, {@code retry}, {@code failed}, or {@code refused} when
 * the address was not allowed), and an excerpt of the answer or the error.
 */
public record WebhookAttempt(long id, long messageId, String msgId, int attempt, long at, Integer status,
        long latencyMs, String outcome, String response) {

    public static final String DELIVERED = "delivered";
    public static final String RETRY = "retry";
    public static final String FAILED = "failed";
    public static final String REFUSED = "refused";
}
