package dev.switchboard.rest.liberty;

import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ContainerErrors;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code GET /openapi} — the API's OpenAPI document (web-rest's {@code META-INF/openapi.yaml}, as
 * MicroProfile OpenAPI serves it: YAML, or JSON for {@code format=json} or
 * {@code Accept: application/json}) — and {@code /openapi/ui/}, its browsing UI, relayed from
 * Liberty ({@link LibertyEndpoints}). Public, as documentation is.
 */
@Path("openapi")
@ApplicationScoped
public class OpenApiResource {

    /** A page or file of the UI: names in folders (no {@code ..}), ending in one of the kinds it is made of. */
    private static final Pattern UI_FILE = Pattern.compile(
            "([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\\.(html|js|css|png|svg|ico|map|json)");

    @Inject
    LibertyEndpoints liberty;

    @GET
    public void document(@QueryParam("format") String format, @HeaderParam(HttpHeaders.ACCEPT) String accept,
            @Suspended AsyncResponse answer) {
        String query = "";
        if (format != null) {
            String f = format.toLowerCase(Locale.ROOT);
            if (!f.equals("json") && !f.equals("yaml")) {
                throw new ApiException(400, "invalid_format", "format must be json or yaml");
            }
            query = "?format=" + f.toUpperCase(Locale.ROOT);
        }
        Relayed.resume(answer, liberty, "/openapi" + query, accept, ContainerErrors.forStatus(404).refusal());
    }

    /**
     * The UI's page. It lives under {@code /openapi/ui/} — it names its files relative to that
     * folder — so {@code /openapi/ui} (which JAX-RS matches here too) moves there.
     */
    @GET
    @Path("ui")
    public void uiPage(@HeaderParam(HttpHeaders.ACCEPT) String accept, @Context UriInfo uri, @Suspended AsyncResponse answer) {
        if (!uri.getPath().endsWith("/")) {
            answer.resume(Response.status(Response.Status.MOVED_PERMANENTLY).location(URI.create("/openapi/ui/")).build());
            return;
        }
        Relayed.resume(answer, liberty, "/openapi/ui/", accept, ContainerErrors.forStatus(404).refusal());
    }

    /** A file of the UI; only a name of the kinds it is made of is asked of Liberty, any other is not found here. */
    @GET
    @Path("ui/{file: .+}")
    public void uiFile(@PathParam("file") String file, @HeaderParam(HttpHeaders.ACCEPT) String accept,
            @Suspended AsyncResponse answer) {
        if (!UI_FILE.matcher(file).matches()) {
            throw ContainerErrors.forStatus(404).refusal();
        }
        Relayed.resume(answer, liberty, "/openapi/ui/" + file, accept, ContainerErrors.forStatus(404).refusal());
    }
}
