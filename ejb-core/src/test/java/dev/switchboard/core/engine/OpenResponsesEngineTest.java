package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code openresponses} engine against a scripted model server on loopback that answers with
 * Open Responses JSON (status and body per request, in order), over real HTTP.
 */
class OpenResponsesEngineTest {

    private static final String KEY = "sk-test-secret-0123456789";

    private HttpServer server;
    private ScheduledExecutorService timer;
    private final Deque<Answer> script = new ArrayDeque<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch holding;

    private record Answer(int status, String body) {
    }

    private record Seen(String path, String authorization, JsonObject body) {
    }

    @BeforeEach
    void start() throws IOException {
        timer = Executors.newSingleThreadScheduledExecutor();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                seen.add(new Seen(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Authorization"),
                        Json.createReader(new StringReader(body)).readObject()));
            }
            CountDownLatch hold = holding;
            if (hold != null) {
                try {
                    hold.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Answer answer;
            synchronized (script) {
                answer = script.isEmpty() ? new Answer(500, "{}") : script.poll();
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        CountDownLatch hold = holding;
        if (hold != null) {
            hold.countDown();
        }
        server.stop(0);
        timer.shutdownNow();
    }

    private OpenResponsesEngine engine(int retries) {
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/");
        return new OpenResponsesEngine(new OpenResponsesEngine.Settings(base, Optional.of(KEY), "test-model",
                Optional.of("Be brief."), Duration.ofSeconds(5), Optional.of(64), retries),
                HttpClient.newHttpClient(), timer);
    }

    private static String response(String text) {
        return Json.createObjectBuilder()
                .add("id", "resp_1").add("object", "response").add("status", "completed").add("model", "test-model")
                .add("output", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "reasoning").add("id", "rs_1")
                                .add("summary", Json.createArrayBuilder()))
                        .add(Json.createObjectBuilder().add("type", "message").add("id", "msg_1").add("role", "assistant")
                                .add("status", "completed").add("content", Json.createArrayBuilder()
                                        .add(Json.createObjectBuilder().add("type", "output_text").add("text", text)
                                                .add("annotations", Json.createArrayBuilder())))))
                .add("usage", Json.createObjectBuilder().add("input_tokens", 12).add("output_tokens", 3)
                        .add("total_tokens", 15))
                .build().toString();
    }

    private static EngineRequest request(String text, List<JsonObject> history, Cancellation cancellation) {
        return new EngineRequest("run-1", "u", "t", text, "followUp", 1, cancellation, () -> history);
    }

    private static JsonObject userItem(String text) {
        return Json.createObjectBuilder().add("type", "message").add("id", "msg_h").add("status", "completed")
                .add("role", "user").add("content", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "input_text").add("text", text)))
                .build();
    }

    @Test
    void sendsTheHistoryThenTheMessageAndAnswersWithTheAssistantsText() throws Exception {
        script.add(new Answer(200, response("Paris.")));
        JsonObject output = engine(0).execute(request("And of France?", List.of(userItem("capital of Italy?")),
                Cancellation.manual())).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals("Paris.", output.getString("text"));
        assertEquals("message", output.getString("type"));
        assertEquals("resp_1", output.getString("response_id"));
        assertEquals(12, output.getJsonObject("usage").getInt("input_tokens"));
        assertEquals(3, output.getJsonObject("usage").getInt("output_tokens"));
        assertFalse(output.toString().contains(KEY));

        Seen call = seen.get(0);
        assertEquals("/v1/responses", call.path());
        assertEquals("Bearer " + KEY, call.authorization());
        assertEquals("test-model", call.body().getString("model"));
        assertEquals("Be brief.", call.body().getString("instructions"));
        assertEquals(64, call.body().getInt("max_output_tokens"));
        assertFalse(call.body().getBoolean("stream"));
        assertFalse(call.body().getBoolean("store"));
        assertEquals(2, call.body().getJsonArray("input").size());
        assertEquals("capital of Italy?", call.body().getJsonArray("input").getJsonObject(0).getJsonArray("content")
                .getJsonObject(0).getString("text"));
        JsonObject message = call.body().getJsonArray("input").getJsonObject(1);
        assertEquals("user", message.getString("role"));
        assertEquals("And of France?", message.getJsonArray("content").getJsonObject(0).getString("text"));
    }

    @Test
    void aClientErrorFailsTheRunWithTheServersMessageAndIsNotRetried() {
        script.add(new Answer(400, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"model not found\"}}"));
        script.add(new Answer(200, response("never")));
        ExecutionException e = assertThrows(ExecutionException.class, () -> engine(3)
                .execute(request("x", List.of(), Cancellation.manual())).toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertInstanceOf(EngineFailure.class, e.getCause());
        assertEquals("model server answered 400: model not found", e.getCause().getMessage());
        assertEquals(1, seen.size());
    }

    @Test
    void transientFailuresAreTriedAgainUpToTheLimit() throws Exception {
        script.add(new Answer(503, "{}"));
        script.add(new Answer(429, "{\"error\":{\"message\":\"slow down\"}}"));
        script.add(new Answer(200, response("ok")));
        JsonObject output = engine(2).execute(request("x", List.of(), Cancellation.manual()))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals("ok", output.getString("text"));
        assertEquals(3, seen.size());

        seen.clear();
        script.add(new Answer(502, "bad gateway"));
        script.add(new Answer(502, "bad gateway"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> engine(1)
                .execute(request("x", List.of(), Cancellation.manual())).toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertEquals("model server answered 502: bad gateway", e.getCause().getMessage());
        assertEquals(2, seen.size());
    }

    @Test
    void cancellingTheRunAbortsTheRequest() throws Exception {
        holding = new CountDownLatch(1);
        script.add(new Answer(200, response("too late")));
        Cancellation cancellation = Cancellation.manual();
        var call = engine(3).execute(request("x", List.of(), cancellation)).toCompletableFuture();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(1, seen.size(), "the request reached the server");
        cancellation.cancel();
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
        assertEquals("cancelled", e.getCause().getMessage());
        assertTrue(call.isCompletedExceptionally());
    }

    @Test
    void anUnreachableServerFailsTheRunAfterItsRetries() {
        server.stop(0);
        ExecutionException e = assertThrows(ExecutionException.class, () -> engine(1)
                .execute(request("x", List.of(), Cancellation.manual())).toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().startsWith("model server unreachable: "), e.getCause().getMessage());
        assertFalse(e.getCause().getMessage().contains(KEY));
    }
}
