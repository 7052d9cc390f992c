package dev.switchboard.rest.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.ingress.InvalidEventException;
import dev.switchboard.core.ingress.RequeueRefusedException;
import dev.switchboard.rest.errors.ApiException;
import org.junit.jupiter.api.Test;

class IngressErrorMappersTest {

    @Test
    void anInvalidEventIsABadRequestWithItsMessage() {
        ApiException e = IngressErrorMappers.InvalidEvent.error(new InvalidEventException("type", "type is required"));
        assertEquals("400 invalid_event type is required", e.status() + " " + e.code() + " " + e.getMessage());
    }

    @Test
    void aRefusedRequeueIsNotFoundOrAConflict() {
        ApiException missing = IngressErrorMappers.RequeueRefused.error(new RequeueRefusedException(true, "not found"));
        assertEquals("404 event_not_found not found", missing.status() + " " + missing.code() + " " + missing.getMessage());
        ApiException notFailed = IngressErrorMappers.RequeueRefused.error(new RequeueRefusedException(false, "not failed"));
        assertEquals("409 event_not_requeueable not failed",
                notFailed.status() + " " + notFailed.code() + " " + notFailed.getMessage());
    }
}
