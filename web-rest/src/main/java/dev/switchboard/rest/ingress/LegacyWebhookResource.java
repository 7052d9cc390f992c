package dev.switchboard.rest.ingress;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.logging.Logger;

/** {@code POST /webhook}: Holon's deprecated alias of {@code /ingress/github/webhook} (session-key era). */
@Path("webhook")
@ApplicationScoped
public class LegacyWebhookResource {

    private static final Logger LOG = Logger.getLogger(LegacyWebhookResource.class.getName());

    @Inject
    GithubWebhookResource webhook;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response receive(InputStream body, @HeaderParam("X-GitHub-Event") String event,
            @HeaderParam("X-GitHub-Delivery") String delivery, @HeaderParam("X-Hub-Signature-256") String signature) {
        LOG.warning("POST /webhook is deprecated; use /ingress/github/webhook");
        return webhook.receive(body, event, delivery, signature);
    }
}
