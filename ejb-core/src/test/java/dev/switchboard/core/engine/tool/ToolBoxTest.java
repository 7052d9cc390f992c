package dev.switchboard.core.engine.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The built-in tools and the tool box's rules, over a real loopback server for {@code http_get}. */
class ToolBoxTest {

    private static final Clock FIXED = Clock.fixed(Instant.parse("2026-11-25T21:30:15.123Z"), ZoneOffset.UTC);

    private static String call(ToolBox tools, String name, String arguments) throws Exception {
        return tools.call(name, arguments).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void builtInToolsAnswerAndTheBoxTurnsEveryFailureIntoAnOutput() throws Exception {
        ToolBox tools = ToolBox.builtIn(List.of("current_time", "echo_tool"), FIXED, name -> {
            throw new AssertionError("http_get not asked for");
        });
        assertEquals("2026-11-25T21:30:15Z", call(tools, "current_time", ""));
        assertEquals("hello", call(tools, "echo_tool", "{\"text\":\"hello\"}"));
        assertEquals("error: no tool named rm_rf", call(tools, "rm_rf", "{}"));
        assertEquals("error: the arguments are not a JSON object", call(tools, "echo_tool", "[1,2"));
        assertEquals("error: missing required argument text", call(tools, "echo_tool", "{\"txt\":\"x\"}"));
        assertEquals(List.of("current_time", "echo_tool"), tools.declarations().build().getValuesAs(
                jakarta.json.JsonObject.class).stream().map(t -> t.getString("name")).toList());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ToolBox.builtIn(List.of("shell"), FIXED, name -> null));
        assertTrue(unknown.getMessage().contains("unknown tool 'shell'"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ToolBox(List.of(new EchoTool(), new EchoTool())));
    }

    @Test
    void httpGetFetchesOnlyUnderItsAllowedPrefixes() throws Exception {
        HttpGetTool tool = new HttpGetTool(List.of("https://api.example.com/v1", "http://docs.example.org/"),
                HttpClient.newHttpClient(), Duration.ofSeconds(5));
        assertTrue(tool.allows("https://api.example.com/v1"));
        assertTrue(tool.allows("https://api.example.com/v1/items?q=1"));
        assertTrue(tool.allows("https://API.example.com/v1?x"));
        assertTrue(tool.allows("http://docs.example.org/a/b"));
        assertFalse(tool.allows("https://api.example.com/v10"), "a prefix ends at a path boundary");
        assertFalse(tool.allows("https://api.example.com.evil.net/v1"));
        assertFalse(tool.allows("https://user@api.example.com/v1"), "user info is refused");
        assertFalse(tool.allows("https://api.example.com/v1/../admin"), "dot segments are resolved before comparing");
        assertFalse(tool.allows("http://api.example.com/v1"), "the scheme is part of the prefix");
        assertFalse(tool.allows("file:///etc/passwd"));
        assertFalse(tool.allows("not a url"));
        assertThrows(IllegalArgumentException.class, () -> new HttpGetTool(List.of("ftp://x/"), HttpClient.newHttpClient(),
                Duration.ofSeconds(1)));
    }

    @Test
    void httpGetAnswersTheStatusAndAtMostTheCappedBodyAndRefusesBeforeConnecting() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            byte[] body = (exchange.getRequestURI().getPath().equals("/big") ? "x".repeat(100_000) : "hello")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/missing") ? 404 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            } catch (java.io.IOException clientLeft) {
                // the capped read stops early
            }
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            ToolBox tools = new ToolBox(List.of(new HttpGetTool(List.of(base + "/"), HttpClient.newHttpClient(),
                    Duration.ofSeconds(5))));
            assertEquals("HTTP 200\nhello", call(tools, "http_get", "{\"url\":\"" + base + "/page\"}"));
            assertEquals("HTTP 404\nhello", call(tools, "http_get", "{\"url\":\"" + base + "/missing\"}"));
            String big = call(tools, "http_get", "{\"url\":\"" + base + "/big\"}");
            assertEquals("HTTP 200\n".length() + HttpGetTool.MAX_BODY_BYTES, big.length());
            int before = requests.get();
            assertEquals("error: url not allowed: http://localhost:" + server.getAddress().getPort() + "/page",
                    call(tools, "http_get", "{\"url\":\"http://localhost:" + server.getAddress().getPort() + "/page\"}"));
            assertEquals(before, requests.get(), "a refused URL is never fetched");
        } finally {
            server.stop(0);
        }
    }
}
