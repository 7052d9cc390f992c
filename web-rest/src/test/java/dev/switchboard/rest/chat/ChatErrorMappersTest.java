package dev.switchboard.rest.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.chat.ChatRejectedException;
import dev.switchboard.core.chat.ChatRejectedException.Reason;
import dev.switchboard.rest.errors.ApiException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each refusal of the chat gateway is answered with. */
class ChatErrorMappersTest {

    @Test
    void everyReasonHasItsStatusAndCode() {
        Map<Reason, String> expected = Map.ofEntries(
                Map.entry(Reason.QUEUE_FULL, "429 queue_full"),
                Map.entry(Reason.NOT_FOUND, "404 thread_not_found"),
                Map.entry(Reason.NOT_AUTHORIZED, "403 approval_not_authorized"),
                Map.entry(Reason.MISMATCH, "409 request_id_mismatch"),
                Map.entry(Reason.BUSY, "409 thread_busy"),
                Map.entry(Reason.NO_PENDING_APPROVAL, "409 no_pending_approval"),
                Map.entry(Reason.NO_PENDING_AUTH, "409 no_pending_auth"),
                Map.entry(Reason.AUTH_EXPIRED, "409 auth_expired"),
                Map.entry(Reason.INVALID_TOKEN, "400 invalid_token"),
                Map.entry(Reason.CHECKPOINT_NOT_FOUND, "404 checkpoint_not_found"),
                Map.entry(Reason.UNSUPPORTED, "400 unsupported_command"));
        for (Reason reason : Reason.values()) {
            ApiException e = ChatErrorMappers.Rejected.error(new ChatRejectedException(reason, "why"));
            assertEquals(expected.get(reason), e.status() + " " + e.code(), reason.name());
            assertEquals("why", e.getMessage());
        }
    }

    @Test
    void onlyAFullQueueSaysWhenToRetry() {
        for (Reason reason : Reason.values()) {
            ApiException e = ChatErrorMappers.Rejected.error(new ChatRejectedException(reason, "why"));
            assertEquals(reason == Reason.QUEUE_FULL ? 1 : 0, e.retryAfterSeconds(), reason.name());
        }
    }
}
