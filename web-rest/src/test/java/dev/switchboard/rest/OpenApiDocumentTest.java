package dev.switchboard.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.servlet.annotation.WebServlet;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document served at {@code /openapi} is written by hand
 * ({@code META-INF/openapi.yaml}); these tests keep it true to the code: it is a valid OpenAPI
 * document as OpenAPI tooling reads it, and it describes exactly the routes the JAX-RS resources
 * and the API's servlets serve — a new resource method without its entry fails here, as does an
 * entry for a route that is gone.
 */
class OpenApiDocumentTest {

    static final String DOCUMENT = "META-INF/openapi.yaml";

    @Test
    void theDocumentIsValidOpenApi() throws IOException {
        SwaggerParseResult result = parse();
        assertTrue(result.getMessages() == null || result.getMessages().isEmpty(),
                () -> "the parser's complaints: " + result.getMessages());
        assertNotNull(result.getOpenAPI());
    }

    @Test
    void everyRouteOfTheResourcesIsDocumentedAndNothingElse() throws IOException {
        assertEquals(routesInCode(), routesInDocument(parse().getOpenAPI()));
    }

    @Test
    void everyOperationDocumentsItsErrorsWithTheErrorEnvelope() throws IOException {
        OpenAPI api = parse().getOpenAPI();
        Set<String> missing = new TreeSet<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            boolean hasError = false;
            for (Map.Entry<String, ApiResponse> response : operation.getResponses().entrySet()) {
                if (response.getKey().startsWith("4") || response.getKey().startsWith("5")) {
                    hasError = true;
                }
            }
            boolean isHealth = path.equals("/healthz"); // liveness answers 200 or not at all
            if (!hasError && !isHealth) {
                missing.add(method + " " + path);
            }
        }));
        assertEquals(Set.of(), missing, "operations without a documented error response");
    }

    private static SwaggerParseResult parse() throws IOException {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        return new OpenAPIV3Parser().readContents(read(), null, options);
    }

    private static String read() throws IOException {
        try (InputStream in = OpenApiDocumentTest.class.getClassLoader().getResourceAsStream(DOCUMENT)) {
            assertNotNull(in, DOCUMENT + " is not on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * "METHOD /path" of every resource method of the application (a resource class's own and those it
     * inherits, under its own path), templates without their regex;
     * methods marked {@link Undocumented} only refuse a method (405) and are left out.
     */
    static Set<String> routesInCode() {
        Set<String> routes = new TreeSet<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.switchboard.rest")) {
            if (type.isAnnotatedWith(WebServlet.class)) {
                servletRoutes(type.reflect(), routes);
                continue;
            }
            if (!type.isAnnotatedWith(Path.class)) {
                continue;
            }
            Class<?> resource = type.reflect();
            String base = resource.getAnnotation(Path.class).value();
            for (Method method : resource.getMethods()) { // with those inherited (ResponsesAliasResource)
                String verb = httpMethod(method);
                if (verb != null && !method.isAnnotationPresent(Undocumented.class)) {
                    Path sub = method.getAnnotation(Path.class);
                    routes.add(verb + " " + normalise(base + (sub == null ? "" : "/" + sub.value())));
                }
            }
        }
        assertTrue(routes.size() > 10, () -> "too few routes found, is the scan broken? " + routes);
        return routes;
    }

    /**
     * A servlet that serves API routes (the hot {@code POST /v1/messages}) names their method in a
     * static {@code API_METHOD}; its URL patterns are the routes. A servlet without one (the
     * container's error page) serves none.
     */
    private static void servletRoutes(Class<?> servlet, Set<String> routes) {
        try {
            java.lang.reflect.Field method = servlet.getDeclaredField("API_METHOD");
            method.setAccessible(true);
            for (String pattern : servlet.getAnnotation(WebServlet.class).urlPatterns()) {
                routes.add(method.get(null) + " " + pattern);
            }
        } catch (NoSuchFieldException none) {
            // not an API route
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static Set<String> routesInDocument(OpenAPI api) {
        Set<String> routes = new TreeSet<>();
        for (Map.Entry<String, PathItem> path : api.getPaths().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, io.swagger.v3.oas.models.Operation> operation : path.getValue().readOperationsMap().entrySet()) {
                routes.add(operation.getKey().name() + " " + path.getKey());
            }
        }
        return routes;
    }

    private static String httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    /** {@code /v1/threads/{thread_key: .+}/runs} as OpenAPI writes it: {@code /v1/threads/{thread_key}/runs}. */
    static String normalise(String path) {
        String plain = path.replaceAll("\\{\\s*([A-Za-z0-9_]+)\\s*:[^}]*}", "{$1}").replaceAll("/+", "/");
        if (!plain.startsWith("/")) {
            plain = "/" + plain;
        }
        return plain.length() > 1 && plain.endsWith("/") ? plain.substring(0, plain.length() - 1) : plain;
    }
}
