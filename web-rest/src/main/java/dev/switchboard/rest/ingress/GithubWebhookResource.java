package dev.switchboard.rest.ingress;

import dev.switchboard.core.ingress.EventEnvelope;
import dev.switchboard.core.ingress.GenericEvents;
import dev.switchboard.core.ingress.GithubEvents;
import dev.switchboard.core.ingress.IngressDoor;
import dev.switchboard.core.ingress.IngressService;
import dev.switchboard.core.ingress.IngressSettings;
import dev.switchboard.core.ingress.UnsupportedEventException;
import dev.switchboard.core.ingress.WebhookSignature;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * {@code POST /ingress/github/webhook}: a GitHub delivery
 * is verified (when a secret is configured), normalised, routed to its lane, recorded and handed
 * off before the {@code 202}. A body that already is an envelope (a string {@code type}) passes
 * through as a generic event (holon-serve spec §9.2a). Unsupported events are answered {@code 202} and not recorded, as in
 * Holon; malformed bodies get {@code 400}/{@code 413} ({@code invalid_event}: {@link IngressErrorMappers.InvalidEvent})
 * and leave nothing behind.
 */
@Path("ingress/github/webhook")
@ApplicationScoped
public class GithubWebhookResource {

    private static final Logger LOG = Logger.getLogger(GithubWebhookResource.class.getName());

    @EJB
    IngressService ingress;

    @Inject
    IngressSettings settings;

    @Inject
    Caller caller;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response receive(InputStream in, @HeaderParam("X-GitHub-Event") String event,
            @HeaderParam("X-GitHub-Delivery") String delivery, @HeaderParam("X-Hub-Signature-256") String signature) {
        byte[] bytes = JsonBody.readLimited(in, settings.maxBodyBytes());
        if (settings.githubSecret().isPresent()
                && !WebhookSignature.verify(settings.githubSecret().get(), bytes, signature)) {
            throw new ApiException(401, "invalid_signature",
                    signature == null ? "missing X-Hub-Signature-256" : "X-Hub-Signature-256 does not match the body");
        }
        JsonBody.storable(event, "X-GitHub-Event");
        JsonBody.storable(delivery, "X-GitHub-Delivery");
        JsonObject body = IngressBodies.object(bytes);
        if (GenericEvents.isEnvelope(body)) {
            return IngressBodies.accepted(ingress.receive(user(), IngressDoor.GITHUB, IngressBodies.envelope(body, settings.repoHint())));
        }
        EventEnvelope envelope;
        try {
            envelope = GithubEvents.normalise(GithubEvents.withHeaders(body, event, delivery),
                    settings.repoHint(), IngressService.newEventId(), Instant.now());
        } catch (UnsupportedEventException e) {
            LOG.fine(() -> "GitHub delivery " + delivery + " ignored: " + e.getMessage());
            return Response.accepted(Jsons.createObjectBuilder().add("status", "ignored")
                    .add("reason", e.getMessage()).build().toString()).type(MediaType.APPLICATION_JSON).build();
        }
        return IngressBodies.accepted(ingress.receive(user(), IngressDoor.GITHUB, envelope));
    }

    /** Signed deliveries belong to the configured ingress user; unsigned ones to the authenticated caller. */
    private String user() {
        return settings.githubSecret().isPresent() ? settings.user() : caller.user();
    }
}
