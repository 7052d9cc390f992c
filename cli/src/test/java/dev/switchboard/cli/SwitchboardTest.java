package dev.switchboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The command line without a server: options, their checks, where it connects, its exit status. */
class SwitchboardTest {

    /** What one command line printed and returned. */
    record Outcome(int status, String out, String err) {
    }

    static Outcome run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Switchboard.run(args, new PrintWriter(out), new PrintWriter(err), env, false);
        return new Outcome(status, out.toString(), err.toString());
    }

    @Test
    void runWaitRefusesANonPositiveTimeoutOrIntervalBeforeAnyRequest() throws IOException {
        try (ServerSocket server = new ServerSocket(0)) {
            AtomicInteger connections = new AtomicInteger();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        server.accept().close();
                        connections.incrementAndGet();
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Map<String, String> env = Map.of("SWITCHBOARD_URL", "http://127.0.0.1:" + server.getLocalPort());

            Outcome zero = run(env, "run", "wait", "r1", "--timeout", "0");
            assertEquals(1, zero.status());
            assertEquals("error: option '--timeout <seconds>' argument '0' is invalid. must be a positive number", zero.err().strip());
            Outcome nan = run(env, "run", "wait", "r1", "--interval-ms", "NaN");
            assertEquals(1, nan.status());
            assertTrue(nan.err().contains("argument 'NaN' is invalid. must be a positive number"), nan.err());
            Outcome negative = run(env, "message", "hi", "--wait", "--timeout", "-3");
            assertEquals(1, negative.status());
            assertTrue(negative.err().contains("must be a positive number"), negative.err());
            assertEquals("", zero.out() + nan.out() + negative.out());
            assertEquals(0, connections.get(), "no request is made for an invalid option");
        }
    }

    @Test
    void theServerIsTheOptionElseSwitchboardUrlElseJagcApiUrlElseLocalhost() {
        Map<String, String> env = new HashMap<>();
        assertEquals(URI.create("http://localhost:9080"), base(env));
        env.put("JAGC_API_URL", "http://127.0.0.1:31415");
        assertEquals(URI.create("http://127.0.0.1:31415"), base(env));
        env.put("SWITCHBOARD_URL", "http://sb.example:8080/");
        assertEquals(URI.create("http://sb.example:8080"), base(env));
        assertEquals(URI.create("https://other:443"), base(env, "--url", "https://other:443"));
        assertEquals(URI.create("http://jagc:1"), base(env, "--api-url", "http://jagc:1"));
    }

    @Test
    void anUnreachableServerOrAMalformedUrlIsOneLineOnStderrAndStatusOne() throws IOException {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            closedPort = probe.getLocalPort();
        }
        Outcome refused = run(Map.of(), "health", "--url", "http://127.0.0.1:" + closedPort);
        assertEquals(1, refused.status());
        assertEquals("cannot reach http://127.0.0.1:" + closedPort + ": connection refused", refused.err().strip());
        Outcome malformed = run(Map.of("SWITCHBOARD_URL", "localhost:9080"), "health");
        assertEquals(1, malformed.status());
        assertEquals("invalid server URL: localhost:9080 (expected http://host:port)", malformed.err().strip());
        Outcome unknown = run(Map.of(), "frobnicate");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().startsWith("error: Unmatched argument"), unknown.err());
    }

    @Test
    void theWebSocketIsAtSlashWsUnderTheServerUrl() {
        assertEquals(URI.create("ws://localhost:9080/ws"), Follower.webSocketUri(URI.create("http://localhost:9080")));
        assertEquals(URI.create("wss://sb.example/base/ws"), Follower.webSocketUri(URI.create("https://sb.example/base/")));
    }

    @Test
    void webhookSignaturesAreGithubsHmacSha256() {
        // The example of GitHub's "Validating webhook deliveries" page.
        assertEquals("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
                IngressCommand.signature("It's a Secret to Everybody", "Hello, World!".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aPayloadIsBuiltOnlyForTheEventsThatHaveOne() {
        assertEquals("{\"repository\":{\"full_name\":\"acme/w\"},\"action\":\"opened\",\"issue\":{\"number\":7,\"title\":\"t\"}}",
                IngressCommand.payload("issues", null, "acme/w", 7, "t").toString());
        CliException refused = assertThrows(CliException.class, () -> IngressCommand.payload("push", null, "acme/w", 1, "t"));
        assertEquals("no built-in payload for event 'push': give one with --body-file", refused.getMessage());
    }

    private static URI base(Map<String, String> env, String... options) {
        Switchboard app = new Switchboard(env, false);
        new picocli.CommandLine(app).parseArgs(options);
        return app.baseUri();
    }
}
