package dev.switchboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code switchboard webhooks} against a stand-in of the server on loopback: the requests it makes
 * (method, path, query, body, token), what it prints, and its refusals before any request.
 */
class WebhooksCommandTest {

    private static final String ENDPOINT = "{\"id\":\"ep_1\",\"url\":\"https://hooks.example.com/a\",\"description\":\"ticketing\","
            + "\"event_types\":[\"turn.completed\",\"turn.failed\"],\"thread_id\":\"support-42\",\"enabled\":true,"
            + "\"created_at\":\"2026-11-27T10:00:00Z\",\"updated_at\":\"2026-11-27T10:00:00Z\"";

    /** One request as the stand-in saw it. */
    record Seen(String method, String target, String body, String authorization) {
    }

    /** A canned answer: status and body ({@code null}: no body). */
    record Answer(int status, String body) {
    }

    private HttpServer server;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private Map<String, String> env;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String target = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(exchange.getRequestMethod(), target, body, exchange.getRequestHeaders().getFirst("Authorization")));
            Answer answer = answers.getOrDefault(exchange.getRequestMethod() + " " + target,
                    new Answer(404, "{\"error\":{\"code\":\"route_not_found\",\"message\":\"no route\"}}"));
            byte[] bytes = answer.body() == null ? new byte[0] : answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        env = Map.of("SWITCHBOARD_URL", "http://127.0.0.1:" + server.getAddress().getPort(), "SWITCHBOARD_TOKEN", "t0k");
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private void answer(String request, int status, String body) {
        answers.put(request, new Answer(status, body));
    }

    private SwitchboardTest.Outcome run(String... args) {
        return SwitchboardTest.run(env, args);
    }

    @Test
    void addSendsTheChoicesAndPrintsTheSecretOnceWithANoteOnStderr() {
        answer("POST /v1/webhooks", 201, ENDPOINT + ",\"secret\":\"whsec_abc\"}");
        SwitchboardTest.Outcome added = run("webhooks", "add", "https://hooks.example.com/a", "--event", "turn.completed",
                "--event", "turn.failed", "--thread", "support-42", "--description", "ticketing");

        assertEquals(0, added.status(), added.err());
        assertEquals(new Seen("POST", "/v1/webhooks", "{\"url\":\"https://hooks.example.com/a\",\"event_types\":[\"turn.completed\","
                + "\"turn.failed\"],\"thread_id\":\"support-42\",\"description\":\"ticketing\"}", "Bearer t0k"), seen.get(0));
        assertEquals(lines("ep_1  enabled",
                "  url          https://hooks.example.com/a",
                "  description  ticketing",
                "  events       turn.completed, turn.failed",
                "  thread       support-42",
                "  times        created 2026-11-27T10:00:00Z  updated 2026-11-27T10:00:00Z",
                "  secret       whsec_abc"), added.out());
        assertEquals(1, added.out().split("whsec_abc", -1).length - 1, "the secret is printed once");
        assertEquals(WebhooksCommand.SECRET_NOTE, added.err().strip());
    }

    @Test
    void addWithCommaSeparatedEventsAndDisabledAndJsonPrintsTheAnswerAsIs() {
        String created = "{\"id\":\"ep_2\",\"url\":\"https://h.example/b\",\"event_types\":[\"run.failed\",\"auth.required\"],"
                + "\"enabled\":false,\"secret\":\"whsec_xyz\"}";
        answer("POST /v1/webhooks", 201, created);
        SwitchboardTest.Outcome added = run("webhooks", "add", "https://h.example/b", "--event", "run.failed,auth.required",
                "--disabled", "--json");

        assertEquals(0, added.status(), added.err());
        assertEquals("{\"url\":\"https://h.example/b\",\"event_types\":[\"run.failed\",\"auth.required\"],\"enabled\":false}",
                seen.get(0).body());
        assertEquals(created, added.out().strip(), "stdout stays one JSON document for scripts");
        assertEquals(WebhooksCommand.SECRET_NOTE, added.err().strip());
    }

    @Test
    void listPrintsOneRowPerEndpoint() {
        answer("GET /v1/webhooks", 200, "{\"data\":[" + ENDPOINT + "},"
                + "{\"id\":\"ep_2\",\"url\":\"https://h.example/b\",\"event_types\":[\"run.failed\"],\"enabled\":false,"
                + "\"disabled_reason\":\"8 deliveries\\nfailed in a row\"},"
                + "{\"id\":\"ep_3\",\"url\":\"https://h.example/c\",\"enabled\":true}]}");
        SwitchboardTest.Outcome listed = run("webhooks", "list");

        assertEquals(0, listed.status(), listed.err());
        assertEquals(lines(
                "ep_1  enabled   https://hooks.example.com/a  events:turn.completed,turn.failed  thread:support-42  ticketing",
                "ep_2  disabled  https://h.example/b  events:run.failed  thread:all  (disabled: 8 deliveries failed in a row)",
                "ep_3  enabled   https://h.example/c  events:all  thread:all"), listed.out());
        assertEquals("", listed.err());
    }

    @Test
    void showDisableEnableRotateAndRemoveCallTheirRoutes() {
        String disabled = ENDPOINT.replace("\"enabled\":true", "\"enabled\":false,\"disabled_reason\":\"by the user\"") + "}";
        answer("GET /v1/webhooks/ep_1", 200, disabled);
        answer("PATCH /v1/webhooks/ep_1", 200, disabled);
        answer("POST /v1/webhooks/ep_1/rotate", 200, ENDPOINT + ",\"previous_secret_expires_at\":\"2026-11-27T11:00:00Z\","
                + "\"secret\":\"whsec_new\"}");
        answer("DELETE /v1/webhooks/ep_1", 204, null);

        SwitchboardTest.Outcome shown = run("webhooks", "show", "ep_1");
        assertTrue(shown.out().contains("  disabled     by the user" + System.lineSeparator()), shown.out());
        assertEquals(lines("ep_1  disabled  https://hooks.example.com/a  events:turn.completed,turn.failed  thread:support-42  ticketing"
                + "  (disabled: by the user)"), run("webhooks", "disable", "ep_1").out());
        run("webhooks", "enable", "ep_1");
        SwitchboardTest.Outcome rotated = run("webhooks", "rotate", "ep_1", "--grace", "3600");
        assertTrue(rotated.out().contains("  old secret   still signs until 2026-11-27T11:00:00Z" + System.lineSeparator()
                + "  secret       whsec_new" + System.lineSeparator()), rotated.out());
        assertEquals(WebhooksCommand.SECRET_NOTE, rotated.err().strip());
        SwitchboardTest.Outcome removed = run("webhooks", "remove", "ep_1");

        assertEquals(lines("removed ep_1"), removed.out());
        assertEquals(0, removed.status(), removed.err());
        assertEquals(List.of(
                new Seen("GET", "/v1/webhooks/ep_1", "", "Bearer t0k"),
                new Seen("PATCH", "/v1/webhooks/ep_1", "{\"enabled\":false}", "Bearer t0k"),
                new Seen("PATCH", "/v1/webhooks/ep_1", "{\"enabled\":true}", "Bearer t0k"),
                new Seen("POST", "/v1/webhooks/ep_1/rotate", "{\"grace_seconds\":3600}", "Bearer t0k"),
                new Seen("DELETE", "/v1/webhooks/ep_1", "", "Bearer t0k")), seen);
    }

    @Test
    void messagesAttemptsAndReplayPrintALineEachAndTheNextCursorOnStderr() {
        String pending = "{\"id\":\"msg_1\",\"event_type\":\"turn.completed\",\"thread_id\":\"t\",\"state\":\"pending\",\"attempts\":2,"
                + "\"created_at\":\"2026-11-27T10:00:00Z\",\"next_attempt_at\":\"2026-11-27T10:05:00Z\"}";
        answer("GET /v1/webhooks/ep_1/messages?limit=2", 200, "{\"data\":[" + pending + ","
                + "{\"id\":\"msg_0\",\"event_type\":\"run.failed\",\"state\":\"delivered\",\"attempts\":1,"
                + "\"created_at\":\"2026-11-27T09:00:00Z\",\"ended_at\":\"2026-11-27T09:00:01Z\"}],\"next_cursor\":\"c2\"}");
        answer("GET /v1/webhooks/ep_1/attempts?limit=50&cursor=c%2F1&message_id=msg_1", 200, "{\"data\":["
                + "{\"message_id\":\"msg_1\",\"attempt\":1,\"at\":\"2026-11-27T10:00:00Z\",\"latency_ms\":3001,\"outcome\":\"retry\","
                + "\"response\":\"connect timed out\"},"
                + "{\"message_id\":\"msg_1\",\"attempt\":2,\"at\":\"2026-11-27T10:01:00Z\",\"status\":500,\"latency_ms\":12,"
                + "\"outcome\":\"retry\",\"response\":\"upstream\\nbroke\"}],\"next_cursor\":null}");
        answer("POST /v1/webhooks/ep_1/messages/msg_1/replay", 202, pending);

        SwitchboardTest.Outcome messages = run("webhooks", "messages", "ep_1", "--limit", "2");
        assertEquals(lines(
                "msg_1  pending    turn.completed  attempts:2  2026-11-27T10:00:00Z  next:2026-11-27T10:05:00Z  thread:t",
                "msg_0  delivered  run.failed  attempts:1  2026-11-27T09:00:00Z  ended:2026-11-27T09:00:01Z"), messages.out());
        assertEquals("more: --cursor c2", messages.err().strip());

        SwitchboardTest.Outcome attempts = run("webhooks", "attempts", "ep_1", "--message", "msg_1", "--cursor", "c/1");
        assertEquals(lines(
                "2026-11-27T10:00:00Z  msg_1  #1  retry        -  3001ms  connect timed out",
                "2026-11-27T10:01:00Z  msg_1  #2  retry      500  12ms  upstream broke"), attempts.out());
        assertEquals("", attempts.err());

        SwitchboardTest.Outcome replayed = run("webhooks", "replay", "ep_1", "msg_1");
        assertEquals(0, replayed.status(), replayed.err());
        assertTrue(replayed.out().startsWith("msg_1  pending "), replayed.out());
        assertEquals(new Seen("POST", "/v1/webhooks/ep_1/messages/msg_1/replay", "", "Bearer t0k"), seen.get(2));
    }

    @Test
    void aServerRefusalIsItsMessageOnStderrAndStatusOne() {
        answer("GET /v1/webhooks/ep_gone", 404, "{\"error\":{\"code\":\"webhook_not_found\",\"message\":\"webhook ep_gone not found\"}}");
        answer("POST /v1/webhooks", 400, "{\"error\":{\"code\":\"url_not_allowed\","
                + "\"message\":\"url resolves to a loopback address (127.0.0.1)\"}}");
        answer("DELETE /v1/webhooks/ep_gone", 404, "{\"error\":{\"code\":\"webhook_not_found\",\"message\":\"webhook ep_gone not found\"}}");

        SwitchboardTest.Outcome missing = run("webhooks", "show", "ep_gone");
        assertEquals(1, missing.status());
        assertEquals("webhook ep_gone not found", missing.err().strip());
        SwitchboardTest.Outcome refused = run("webhooks", "add", "http://127.0.0.1:8080/hook");
        assertEquals(1, refused.status());
        assertEquals("url resolves to a loopback address (127.0.0.1)", refused.err().strip());
        SwitchboardTest.Outcome notRemoved = run("webhooks", "remove", "ep_gone");
        assertEquals(1, notRemoved.status());
        assertEquals("webhook ep_gone not found", notRemoved.err().strip());
        assertEquals("", missing.out() + refused.out() + notRemoved.out(), "no secret note, no half answer");
    }

    @Test
    void aMissingIdAnUnknownSubcommandOrAnOutOfRangeOptionIsRefusedBeforeAnyRequest() {
        SwitchboardTest.Outcome noId = run("webhooks", "show");
        assertEquals(1, noId.status());
        assertEquals(lines("error: Missing required parameter: '<id>'", "(see: switchboard webhooks show --help)"), noId.err());
        SwitchboardTest.Outcome noMessage = run("webhooks", "replay", "ep_1");
        assertEquals(1, noMessage.status());
        assertTrue(noMessage.err().startsWith("error: Missing required parameter: '<msg_id>'"), noMessage.err());
        SwitchboardTest.Outcome unknown = run("webhooks", "frobnicate", "ep_1");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().startsWith("error: Unmatched arguments from index 1: 'frobnicate', 'ep_1'"), unknown.err());
        assertTrue(unknown.err().contains("(see: switchboard webhooks --help)"), unknown.err());
        SwitchboardTest.Outcome none = run("webhooks");
        assertEquals(1, none.status());
        assertTrue(none.err().startsWith("error: Missing required subcommand"), none.err());

        SwitchboardTest.Outcome limit = run("webhooks", "messages", "ep_1", "--limit", "0");
        assertEquals(1, limit.status());
        assertEquals("error: option '--limit <n>' argument '0' is invalid. must be 1 to 200", limit.err().strip());
        SwitchboardTest.Outcome grace = run("webhooks", "rotate", "ep_1", "--grace", "604801");
        assertEquals(1, grace.status());
        assertEquals("error: option '--grace <seconds>' argument '604801' is invalid. must be 0 to 604800", grace.err().strip());
        SwitchboardTest.Outcome notANumber = run("webhooks", "attempts", "ep_1", "--limit", "many");
        assertEquals(1, notANumber.status());
        assertTrue(notANumber.err().startsWith("error: Invalid value for option '--limit'"), notANumber.err());

        assertEquals("", noId.out() + noMessage.out() + unknown.out() + none.out() + limit.out() + grace.out() + notANumber.out());
        assertEquals(List.of(), seen, "no request is made for a command line that is refused");
    }

    @Test
    void theHelpThatARefusalPointsToIsThere() {
        SwitchboardTest.Outcome help = run("webhooks", "show", "--help");
        assertEquals(0, help.status(), help.err());
        assertTrue(help.out().startsWith("Usage: switchboard webhooks show "), help.out());
        SwitchboardTest.Outcome commands = run("webhooks", "--help");
        assertEquals(0, commands.status(), commands.err());
        for (String command : List.of("list", "add", "show", "enable", "disable", "remove", "rotate", "messages", "attempts", "replay")) {
            assertTrue(commands.out().contains(System.lineSeparator() + "  " + command + " "), command + " in " + commands.out());
        }
        assertEquals(List.of(), seen);
    }

    private static String lines(String... lines) {
        return String.join(System.lineSeparator(), lines) + System.lineSeparator();
    }
}
