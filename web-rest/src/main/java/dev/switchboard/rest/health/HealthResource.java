package dev.switchboard.rest.health;

import dev.switchboard.core.json.Jsons;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;

/**
 * MicroProfile Health's endpoints — {@code /health}, {@code /health/live}, {@code /health/ready},
 * {@code /health/started} — in its wire format (200 when every check is UP, else 503), over the
 * application's own {@link HealthCheck} beans. Served here rather than by Liberty's mpHealth
 * feature because that endpoint answers 200 to POST, PUT and DELETE and refuses what it does not
 * know with the container's HTML page; here a wrong method or path gets the API's JSON error like
 * every other route.
 */
@Path("health")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class HealthResource {

    @Inject
    @Liveness
    Instance<HealthCheck> liveness;

    @Inject
    @Readiness
    Instance<HealthCheck> readiness;

    @Inject
    @Startup
    Instance<HealthCheck> startup;

    @GET
    public Response all() {
        List<HealthCheck> checks = new ArrayList<>();
        liveness.forEach(checks::add);
        readiness.forEach(checks::add);
        startup.forEach(checks::add);
        return answer(checks);
    }

    @GET
    @Path("live")
    public Response live() {
        return answer(liveness.stream().toList());
    }

    @GET
    @Path("ready")
    public Response ready() {
        return answer(readiness.stream().toList());
    }

    @GET
    @Path("started")
    public Response started() {
        return answer(startup.stream().toList());
    }

    private static Response answer(List<HealthCheck> checks) {
        boolean up = true;
        JsonArrayBuilder results = Jsons.createArrayBuilder();
        for (HealthCheck check : checks) {
            HealthCheckResponse r = check.call();
            up &= r.getStatus() == HealthCheckResponse.Status.UP;
            JsonObjectBuilder result = Jsons.createObjectBuilder().add("name", r.getName())
                    .add("status", r.getStatus().name());
            r.getData().ifPresent(data -> result.add("data", data(data)));
            results.add(result);
        }
        String body = Jsons.createObjectBuilder().add("status", up ? "UP" : "DOWN").add("checks", results).build()
                .toString();
        return Response.status(up ? 200 : 503).entity(body).build();
    }

    private static JsonObjectBuilder data(Map<String, Object> data) {
        JsonObjectBuilder b = Jsons.createObjectBuilder();
        data.forEach((key, value) -> {
            if (value instanceof Number n) {
                b.add(key, n.longValue());
            } else if (value instanceof Boolean flag) {
                b.add(key, flag);
            } else {
                b.add(key, String.valueOf(value));
            }
        });
        return b;
    }
}
