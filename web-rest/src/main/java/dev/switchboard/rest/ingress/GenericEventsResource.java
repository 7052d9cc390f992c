package dev.switchboard.rest.ingress;

import dev.switchboard.core.ingress.IngressDoor;
import dev.switchboard.core.ingress.IngressService;
import dev.switchboard.core.ingress.IngressSettings;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.auth.Caller;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;

/**
 * {@code POST /ingress/events}: one event envelope (holon-serve spec §8) from any source,
 * validated, filled like Holon's {@code InjectEvent}, then routed, deduplicated, recorded and
 * handed off before the {@code 202} — the same pipeline as GitHub deliveries. Owned by the
 * authenticated caller.
 */
@Path("ingress/events")
@ApplicationScoped
public class GenericEventsResource {

    @EJB
    IngressService ingress;

    @Inject
    IngressSettings settings;

    @Inject
    Caller caller;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response receive(InputStream body) {
        byte[] bytes = JsonBody.readLimited(body, settings.maxBodyBytes());
        return IngressBodies.accepted(ingress.receive(caller.user(), IngressDoor.EVENTS,
                IngressBodies.envelope(IngressBodies.object(bytes), settings.repoHint())));
    }
}
