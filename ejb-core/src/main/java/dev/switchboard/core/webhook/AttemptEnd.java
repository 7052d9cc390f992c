package dev.switchboard.core.webhook;

import java.time.Duration;

/**
 * What an attempt's end makes of its message: delivered on a 2xx; otherwise due again after the
 * schedule's next wait; after the schedule's last attempt, failed (its endpoint is then disabled).
 * {@code logged} is the outcome the delivery log shows: the attempt's own ({@code delivered},
 * {@code retry}, {@code refused}), or {@code failed} for a last attempt that was a plain failure.
 */
record AttemptEnd(String state, Duration delay, String logged) {

    /** {@code outcome}: the attempt's ({@link WebhookAttempt}); {@code attempt}: its number, from 1. */
    static AttemptEnd of(String outcome, int attempt, RetrySchedule schedule) {
        if (WebhookAttempt.DELIVERED.equals(outcome)) {
            return new AttemptEnd(WebhookMessage.DELIVERED, null, outcome);
        }
        Duration wait = schedule.after(attempt);
        if (wait != null) {
            return new AttemptEnd(WebhookMessage.PENDING, wait, outcome);
        }
        return new AttemptEnd(WebhookMessage.FAILED, null,
                WebhookAttempt.REFUSED.equals(outcome) ? outcome : WebhookAttempt.FAILED);
    }
}
