package dev.switchboard.rest.auth;

import dev.switchboard.core.ingress.IngressSettings;
import dev.switchboard.core.user.Authentication;
import dev.switchboard.core.user.Authenticator;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.util.Set;

/**
 * Resolves the caller's user for every request except the unauthenticated probes; the user is
 * then available through the request-scoped {@link Caller}.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public class CallerFilter implements ContainerRequestFilter {

    private static final Set<String> PUBLIC_PATHS = Set.of("healthz", "health", "health/live", "health/ready",
            "health/started", "favicon.ico");
    /** The path of the shared transcripts' links ({@code /shared/{token}}), opened without a bearer token. */
    public static final String SHARED_TRANSCRIPTS = "shared";
    private static final Set<String> WEBHOOK_PATHS = Set.of("ingress/github/webhook", "webhook");

    @Inject
    Authenticator authenticator;

    @Inject
    IngressSettings ingress;

    @Inject
    Caller caller;

    @Context
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        String relative = path.startsWith("/") ? path.substring(1) : path;
        if (PUBLIC_PATHS.contains(relative)) {
            return;
        }
        if (relative.equals("openapi") || relative.equals("openapi/ui") || relative.startsWith("openapi/ui/")) {
            return; // the API's documentation, public as it was when Liberty served it directly
        }
        if (relative.equals("metrics")) {
            return; // MetricsResource decides: an operator's token, or the metrics token that is nobody's
        }
        if (relative.startsWith(SHARED_TRANSCRIPTS + "/")) {
            return; // a transcript link: its unguessable token is the key
        }
        if (WEBHOOK_PATHS.contains(relative) && ingress.githubSecret().isPresent()) {
            return; // GitHub cannot send a bearer token: the delivery's signature authenticates it
        }
        Authentication auth = authenticator.authenticateFrom(request.getHeaderString("Authorization"),
                servletRequest.getRemoteAddr());
        if (auth.user().isPresent()) {
            caller.authenticated(auth.user().get());
            return;
        }
        request.abortWith(ErrorBody.response(401, "unauthorized", auth.refusalMessage()));
    }
}
