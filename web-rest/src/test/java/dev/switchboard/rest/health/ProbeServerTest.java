package dev.switchboard.rest.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The probe port beside slow and hostile clients (issue 49: one client sending half a request, or a
 * TLS hello, stalled every probe on the JDK server's one thread until it went away). Hundreds of
 * such connections stay open while probes come in; each probe is answered, and the hostile ones are
 * closed once their time to send a request is up.
 */
class ProbeServerTest {

    /** Longer than any answer takes, far shorter than a stalled client holds on: a hang fails here. */
    private static final int PROBE_TIMEOUT_MS = 3_000;

    private ProbeServer server;

    @BeforeEach
    void start() throws IOException {
        server = new ProbeServer(new InetSocketAddress("127.0.0.1", 0),
                path -> path.equals("/health/ready") ? new ProbeServer.Answer(200, "{\"status\":\"UP\"}") : null,
                Executors.defaultThreadFactory());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), PROBE_TIMEOUT_MS);
        socket.setSoTimeout(PROBE_TIMEOUT_MS);
        return socket;
    }

    private String probe(String request) throws IOException {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void probesAreAnsweredBesideHundredsOfStalledAndHostileConnections() throws IOException {
        List<Socket> hostile = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                Socket s = connect();
                byte[] half = switch (i % 3) {
                    case 0 -> "GET /health/ready HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.ISO_8859_1); // no blank line
                    case 1 -> new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03}; // a TLS hello
                    default -> new byte[0]; // connected, silent
                };
                s.getOutputStream().write(half);
                s.getOutputStream().flush();
                hostile.add(s);
            }
            for (int i = 0; i < 20; i++) {
                String answer = probe("GET /health/ready HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer);
                assertTrue(answer.endsWith("{\"status\":\"UP\"}"), answer);
            }
            // The half request and the silent ones are closed when their time is up (the TLS hello at once).
            for (Socket s : hostile) {
                s.setSoTimeout((int) ProbeServer.READ_TIMEOUT_MS + 10_000);
                assertEquals(-1, readToEnd(s.getInputStream()), "closed without an answer");
            }
        } finally {
            for (Socket s : hostile) {
                s.close();
            }
        }
    }

    @Test
    void floodsBeyondTheBoundDropTheOldestAndProbesStillPass() throws IOException {
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < ProbeServer.MAX_CONNECTIONS + 100; i++) {
                flood.add(connect());
            }
            String answer = probe("GET /health/ready HTTP/1.0\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 200 OK"), answer);
            assertTrue(server.openConnections() <= ProbeServer.MAX_CONNECTIONS, "at most the bound is open");
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
    }

    @Test
    void anythingButAProbesGetIsRefusedInTheEnvelope() throws IOException {
        assertTrue(probe("GET /nope HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 404 "));
        assertTrue(probe("POST /health/ready HTTP/1.1\r\nContent-Length: 0\r\n\r\n").startsWith("HTTP/1.1 404 "));
        assertTrue(probe("NONSENSE\r\n\r\n").startsWith("HTTP/1.1 400 "));
        String tooLarge = probe("GET /health/ready HTTP/1.1\r\nX-Big: " + "a".repeat(ProbeServer.MAX_REQUEST_BYTES) + "\r\n\r\n");
        assertTrue(tooLarge.startsWith("HTTP/1.1 431 "), tooLarge);
        assertTrue(tooLarge.contains("\"code\":\"headers_too_large\""), tooLarge);
    }

    /** Reads until the end of the stream; returns -1 then (a timeout fails the test). */
    private static int readToEnd(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // an answer would be bytes: none is expected, but reading on finds the end
            }
            return -1;
        } catch (SocketTimeoutException e) {
            return 0;
        }
    }
}
