package dev.switchboard.core.run;

import dev.switchboard.core.idempotency.PayloadFingerprint;
import dev.switchboard.persistence.run.RunKind;

/**
 * A validated request to run a message in a thread's lane.
 *
 * @param userKey owner of the thread (from the caller's credentials)
 * @param externalUserKey jagc's optional end-user identity, stored only
 * @param idempotencyKey null when the client sent none
 * @param runId the run's id when the caller chose it (a response names its run before storing it), else null
 * @param kind what the run is, by the door it came through
 */
public record MessageCommand(String userKey, String source, String threadKey, String externalUserKey,
        String text, String deliveryMode, String idempotencyKey, String runId, RunKind kind) {

    /** A client's message, whose run gets a fresh id. */
    public MessageCommand(String userKey, String source, String threadKey, String externalUserKey, String text,
            String deliveryMode, String idempotencyKey) {
        this(userKey, source, threadKey, externalUserKey, text, deliveryMode, idempotencyKey, null, RunKind.MESSAGE);
    }

    public MessageCommand {
        require(userKey, "userKey");
        require(source, "source");
        require(threadKey, "threadKey");
        require(text, "text");
        require(deliveryMode, "deliveryMode");
        if (kind == null) {
            throw new IllegalArgumentException("kind is required");
        }
    }

    private static void require(String value, String name) {
        if (value == null) {
            throw new IllegalArgumentException(name + " is required");
        }
    }

    /** What a repeated idempotency key must match (jagc HEAD's payload hash: thread, text, mode). */
    public String fingerprint() {
        return PayloadFingerprint.of(threadKey, text, deliveryMode);
    }
}
