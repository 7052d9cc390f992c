package dev.switchboard.rest.openapi;

import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ContainerErrors;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * {@code GET /openapi}: the API's OpenAPI document as it is written — YAML, or JSON for
 * {@code format=json} or an {@code Accept} that prefers {@code application/json} — and
 * {@code /openapi/ui/}, its browsing UI: this module's page over Swagger UI's files (its WebJar).
 * Public, as documentation is.
 */
@Path("openapi")
@ApplicationScoped
public class OpenApiResource {

    /** A file of the UI: names in folders (no {@code ..}), of the kinds it is made of. */
    private static final Pattern UI_FILE = Pattern.compile(
            "([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\\.(html|js|css|png)");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=UTF-8",
            "js", "text/javascript; charset=UTF-8", "css", "text/css; charset=UTF-8", "png", "image/png");
    /** The UI's page runs only its own files; Swagger UI sets styles inline. */
    static final String UI_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline';"
            + " img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
    /** This module's own files of the UI (its page and the script that starts Swagger UI). */
    private static final String OWN = "openapi-ui/";

    private final OpenApiDocument document = OpenApiDocument.fromClassPath();
    private final String swaggerUi = "META-INF/resources/webjars/swagger-ui/" + swaggerUiVersion() + "/";
    private final EntityTag uiVersion = new EntityTag(swaggerUiVersion());

    @GET
    public Response document(@QueryParam("format") String format, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        boolean json;
        if (format != null) {
            String f = format.toLowerCase(Locale.ROOT);
            if (!f.equals("json") && !f.equals("yaml")) {
                throw new ApiException(400, "invalid_format", "format must be json or yaml");
            }
            json = f.equals("json");
        } else {
            json = accept != null && accept.toLowerCase(Locale.ROOT).startsWith("application/json");
        }
        return Response.ok(json ? document.json() : document.yaml(),
                json ? "application/json" : "text/plain; charset=UTF-8").build();
    }

    /**
     * The UI's page. It lives under {@code /openapi/ui/} — it names its files relative to that
     * folder — so {@code /openapi/ui} (which JAX-RS matches here too) moves there.
     */
    @GET
    @Path("ui")
    public Response uiPage(@Context UriInfo uri, @Context Request request) {
        if (!uri.getPath().endsWith("/")) {
            return Response.status(Response.Status.MOVED_PERMANENTLY).location(URI.create("/openapi/ui/")).build();
        }
        return file(OWN + "index.html", "html", null);
    }

    /** A file of the UI: this module's script, or Swagger UI's; any other name is not found. */
    @GET
    @Path("ui/{file: .+}")
    public Response uiFile(@PathParam("file") String file, @Context Request request) {
        if (!UI_FILE.matcher(file).matches()) {
            throw ContainerErrors.forStatus(404).refusal();
        }
        String type = file.substring(file.lastIndexOf('.') + 1);
        return file.equals("switchboard-ui.js") ? file(OWN + file, type, null) : file(swaggerUi + file, type, request);
    }

    /** A file; {@code request} given, Swagger UI's: tagged with its version, so a browser asks again cheaply. */
    private Response file(String resource, String type, Request request) {
        Response.ResponseBuilder unchanged = request == null ? null : request.evaluatePreconditions(uiVersion);
        if (unchanged != null) {
            return unchanged.build();
        }
        byte[] bytes = read(resource);
        if (bytes == null) {
            throw ContainerErrors.forStatus(404).refusal();
        }
        return Response.ok(bytes, TYPES.get(type)).tag(request == null ? null : uiVersion).header("Cache-Control", "no-cache")
                .header("Content-Security-Policy", UI_POLICY).header("X-Content-Type-Options", "nosniff").build();
    }

    private static byte[] read(String resource) {
        try (InputStream in = OpenApiResource.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The version of the Swagger UI WebJar in the war, from its Maven properties. */
    private static String swaggerUiVersion() {
        try (InputStream in = OpenApiResource.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("the Swagger UI WebJar is missing from the war");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
