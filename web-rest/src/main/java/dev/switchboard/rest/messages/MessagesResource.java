package dev.switchboard.rest.messages;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunService;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.auth.Caller;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST /v1/messages}: 202 with the run envelope once the run is committed;
 * {@code POST /v1/messages/batch}: 202 with every message's run envelope once all are committed,
 * in one transaction. A key reused with another payload is answered by {@link IdempotencyConflictMapper}.
 */
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

    @Inject
    @ConfigProperty(name = "switchboard.http.max-batch-messages", defaultValue = "100")
    int maxBatchMessages;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response post(@Context HttpHeaders headers, InputStream body) {
        MessagePayload payload = MessagePayload.from(read(headers, body));
        String key = payload.effectiveKey(headers.getRequestHeader("Idempotency-Key"));
        IngestOutcome outcome = runs.ingest(payload.command(caller.user(), key));
        return Response.accepted(RunJson.of(outcome.run()).toString()).build();
    }

    @POST
    @Path("batch")
    @Produces(MediaType.APPLICATION_JSON)
    public Response postBatch(@Context HttpHeaders headers, InputStream body) {
        List<MessagePayload> payloads = MessagePayload.batch(read(headers, body), maxBatchMessages);
        MessagePayload.refuseBatchKeyHeader(headers.getRequestHeader("Idempotency-Key"));
        String user = caller.user();
        List<IngestOutcome> outcomes = runs.ingestAll(payloads.stream().map(p -> p.command(user, p.idempotencyKey()))
                .toList());
        JsonArrayBuilder envelopes = Jsons.createArrayBuilder();
        outcomes.forEach(o -> envelopes.add(RunJson.of(o.run())));
        return Response.accepted(Jsons.createObjectBuilder().add("runs", envelopes).build().toString()).build();
    }

    private JsonBody.Parsed read(HttpHeaders headers, InputStream body) {
        return JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body, maxBodyBytes);
    }
}
