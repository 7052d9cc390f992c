package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code /openapi} on a running server: the application serves the document web-rest carries (which
 * {@code OpenApiDocumentTest} holds to the code) as it is written, nothing generated added or
 * lost, valid for OpenAPI tooling in both of its formats, with its browsing UI beside it.
 */
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class OpenApiIT {

    private static final Path DOCUMENT = Path.of(System.getProperty("project.root", ".."))
            .resolve("web-rest/src/main/resources/META-INF/openapi.yaml");

    private static Api api;

    @BeforeAll
    static void start() {
        api = SharedInstance.api();
    }

    @Test
    void theServedDocumentIsTheWrittenOneAndValid() throws IOException {
        OpenAPI written = parse(Files.readString(DOCUMENT, StandardCharsets.UTF_8));
        for (String format : new String[] {"/openapi", "/openapi?format=json"}) {
            Api.Reply reply = api.get(format);
            assertEquals(200, reply.status(), format + ": " + reply.body());
            OpenAPI served = parse(reply.body());
            assertEquals("Switchboard", served.getInfo().getTitle(), format);
            assertEquals(operations(written), operations(served), format);
        }
    }

    /**
     * Over HTTP/1.1 as browsers speak it: Liberty answers the UI's h2c upgrade (which the JDK
     * client offers on plain http) with 101 and then nothing.
     */
    @Test
    void theUiIsServed() {
        Api.Reply reply = api.send(api.request("/openapi/ui/").version(HttpClient.Version.HTTP_1_1).GET());
        assertEquals(200, reply.status());
        assertTrue(reply.body().toLowerCase().contains("<html"), reply.body());
    }

    private static OpenAPI parse(String text) {
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(text);
        assertTrue(result.getMessages() == null || result.getMessages().isEmpty(), () -> "invalid: " + result.getMessages());
        assertNotNull(result.getOpenAPI());
        return result.getOpenAPI();
    }

    private static Set<String> operations(OpenAPI api) {
        Set<String> routes = new TreeSet<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                routes.add(method + " " + path + " " + operation.getResponses().keySet())));
        return routes;
    }
}
