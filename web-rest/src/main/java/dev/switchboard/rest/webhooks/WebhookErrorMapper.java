package dev.switchboard.rest.webhooks;

import dev.switchboard.core.webhook.WebhookException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A webhook request refused: its status and code in the error envelope, as the refusal says. */
@Provider
public class WebhookErrorMapper implements ExceptionMapper<WebhookException> {

    @Override
    public Response toResponse(WebhookException e) {
        return ErrorBody.response(e.status(), e.code(), e.getMessage());
    }
}
