package dev.switchboard.rest.messages;

import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunService;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.core.run.RunJson;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** {@code POST /v1/messages}: 202 with the run envelope once the run is committed. */
@Path("/v1/messages")
@ApplicationScoped
public class MessagesResource {

    @EJB
    RunService runs;

    @Inject
    Caller caller;

    @Inject
    @ConfigProperty(name = "switchboard.http.max-body-bytes", defaultValue = "1048576")
    long maxBodyBytes;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response post(@Context HttpHeaders headers, InputStream body) {
        MessagePayload payload = MessagePayload.from(JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body,
                maxBodyBytes));
        String key = payload.effectiveKey(headers.getRequestHeader("Idempotency-Key"));
        MessageCommand command = new MessageCommand(caller.user(), payload.source(),
                payload.threadKey(), payload.userKey(), payload.text(), payload.deliveryMode(), key);
        IngestOutcome outcome;
        try {
            outcome = runs.ingest(command);
        } catch (IdempotencyConflictException e) {
            throw new ApiException(409, "idempotency_payload_mismatch",
                    "idempotency key was already used with a different payload (run " + e.runId() + ")");
        }
        return Response.accepted(RunJson.of(outcome.run()).toString()).build();
    }
}
