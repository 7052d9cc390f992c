package dev.switchboard.rest.liberty;

import dev.switchboard.core.user.Authenticator;
import dev.switchboard.core.user.MetricsAccess;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * {@code GET /metrics}: Prometheus' text format, for operators — every user's traffic is in it. The
 * caller needs an operator's token or the metrics token ({@link MetricsAccess}); {@code scope}
 * ({@code application}, {@code base}, {@code vendor}) and {@code name} (a metric's name) narrow it.
 * The exposition is Liberty's (MicroProfile Metrics), relayed ({@link LibertyEndpoints}).
 */
@Path("metrics")
@ApplicationScoped
public class MetricsResource {

    private static final Logger LOG = Logger.getLogger(MetricsResource.class.getName());
    private static final Set<String> SCOPES = Set.of("application", "base", "vendor");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:.]{0,199}");

    @Inject
    Authenticator authenticator;

    @Inject
    LibertyEndpoints liberty;

    @GET
    public void scrape(@QueryParam("scope") String scope, @QueryParam("name") String name,
            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, @Context HttpServletRequest request,
            @Suspended AsyncResponse answer) {
        MetricsAccess.Verdict verdict = authenticator.metricsAccess(authorization, request.getRemoteAddr());
        if (!verdict.allowed()) {
            Response refusal = ErrorBody.response(verdict.status(), verdict.code(), verdict.message());
            answer.resume(verdict.status() == 401 ? Response.fromResponse(refusal)
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"switchboard\"").build() : refusal);
            return;
        }
        if (scope != null && !SCOPES.contains(scope)) {
            throw new ApiException(400, "invalid_scope", "scope must be application, base or vendor");
        }
        if (name != null && !NAME.matcher(name).matches()) {
            throw new ApiException(400, "invalid_name", "name must be a metric's name (letters, digits, _ : .)");
        }
        String query = (scope == null ? "" : "&scope=" + scope) + (name == null ? "" : "&name=" + name);
        String path = "/metrics" + (query.isEmpty() ? "" : "?" + query.substring(1));
        CompletableFuture<LibertyEndpoints.Answer> relayed = liberty.get(path, "text/plain").orElseThrow(
                () -> new ApiException(503, "server_busy", "as many scrapes as this instance relays are under way; retry", 1));
        relayed.whenComplete((exposition, failure) -> answer.resume(relayed(path, name, exposition, failure)));
    }

    /**
     * Liberty's {@code 200} as it came, its {@code 404} (an unknown name) as {@code metric_not_found};
     * anything else, and a relay that failed, {@code 503} in the envelope with the cause in the log.
     */
    private static Response relayed(String path, String name, LibertyEndpoints.Answer exposition, Throwable failure) {
        if (failure == null && exposition.status() == 200) {
            return Response.ok(exposition.body(), exposition.contentType()).build();
        }
        if (failure == null && exposition.status() == 404) {
            return ErrorBody.response(new ApiException(404, "metric_not_found", "no metric " + name + " in that scope"));
        }
        if (failure != null) {
            LOG.log(Level.WARNING, "Relaying " + path + " from Liberty's internal port failed", failure);
        } else {
            LOG.warning(() -> "Liberty's endpoint answered " + exposition.status() + " to " + path);
        }
        return ErrorBody.response(503, "unavailable", "the server could not read its metrics; retry");
    }
}
