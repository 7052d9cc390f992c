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
        return answer(checks(""));
    }

    @GET
    @Path("live")
    public Response live() {
        return answer(checks("live"));
    }

    @GET
    @Path("ready")
    public Response ready() {
        return answer(checks("ready"));
    }

    @GET
    @Path("started")
    public Response started() {
        return answer(checks("started"));
    }

    private static Response answer(List<HealthCheck> checks) {
        Report report = report(checks);
        return Response.status(report.status()).entity(report.body()).build();
    }

    /** What a health endpoint answers: 200 when every check is UP, else 503, and MicroProfile Health's body. */
    record Report(int status, String body) {
    }

    /** The checks' answers in MicroProfile Health's wire format; also served by {@link HealthPort}. */
    static Report report(List<HealthCheck> checks) {
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
        return new Report(up ? 200 : 503, body);
    }

    /** The checks of {@code /health/<group>} ("" for all), or null for no such group. */
    List<HealthCheck> checks(String group) {
        return switch (group) {
            case "" -> {
                List<HealthCheck> all = new ArrayList<>();
                liveness.forEach(all::add);
                readiness.forEach(all::add);
                startup.forEach(all::add);
                yield all;
            }
            case "live" -> liveness.stream().toList();
            case "ready" -> readiness.stream().toList();
            case "started" -> startup.stream().toList();
            default -> null;
        };
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
