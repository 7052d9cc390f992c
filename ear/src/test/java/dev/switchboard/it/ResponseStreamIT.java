package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A response's events are one stored sequence (docs/responses.md): two instances on one database
 * run responses whose model (a scripted server on loopback, speaking the Open Responses stream)
 * sends its text one word at a time and only when the test lets it — so each follower joins at an
 * exact moment: before the first word, between any two, after the last. Every follower — the
 * create's own stream, a late {@code GET …?stream=true} on either instance, a resume after every
 * {@code sequence_number} opened while the response runs, after it completed, on the instance that
 * did not run it — must receive exactly the same events, byte for byte (SSE keep-alive comments
 * aside: they are not events), and the deltas add up to the final text. (A restart was a third
 * Liberty start for what the instance that did not run a response shows already: it holds none of
 * it in memory and serves every follower and resume from the stored sequence.)
 *
 * <p>On ChatApprovalIT's two instances, as a user of its own ({@link #TOKEN}): their shared model
 * server hands this class's requests, which say {@link #ASKS}, to {@link #answerWordByWord}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(4) // before ChatApprovalIT (7), whose crash test waits for this class to finish with the pair
class ResponseStreamIT {

    private static final List<String> WORDS = List.of("alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta ", "eta ",
            "theta");
    private static final String TEXT = String.join("", WORDS);
    private static final String PING = ": ping\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    /** Each permit lets the model send its next word (the last one: its response.completed). */
    private static final Semaphore MODEL_MAY_GO_ON = new Semaphore(0);
    /** This class's user on the instances it shares with ChatApprovalIT. */
    static final String TOKEN = "streamer-token-0123456789abc";
    /** The input of every response here, by which the shared model server knows this class's requests. */
    static final String ASKS = "go on, word by word";

    @BeforeAll
    static void start() {
        ChatApprovalIT.pair();
    }

    @AfterAll
    static void stop() {
        MODEL_MAY_GO_ON.release(1000);
        ChatApprovalIT.finished(ResponseStreamIT.class);
    }

    /** Whether {@code request} is one of this class's responses' model requests. */
    static boolean asks(JsonObject request) {
        return request.getJsonArray("input").toString().contains(ASKS);
    }

    /** The model: each word as a {@code response.output_text.delta} when allowed, then the whole text. */
    static void answerWordByWord(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            int seq = 0;
            for (String word : WORDS) {
                hold();
                frame(out, Json.createObjectBuilder().add("type", "response.output_text.delta").add("sequence_number", seq++)
                        .add("item_id", "msg_m").add("output_index", 0).add("content_index", 0).add("delta", word).build());
            }
            hold();
            frame(out, Json.createObjectBuilder().add("type", "response.completed").add("sequence_number", seq)
                    .add("response", Json.createObjectBuilder().add("id", "resp_model").add("object", "response")
                            .add("status", "completed").add("model", "scripted-model")
                            .add("output", Json.createArrayBuilder().add(ScriptedResponses.message(TEXT)))
                            .add("usage", Json.createObjectBuilder().add("input_tokens", 1).add("output_tokens", 8)
                                    .add("total_tokens", 9)))
                    .build());
        }
    }

    private static void frame(OutputStream out, JsonObject event) throws IOException {
        out.write(("event: " + event.getString("type") + "\ndata: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void hold() throws IOException {
        try {
            if (!MODEL_MAY_GO_ON.tryAcquire(120, TimeUnit.SECONDS)) {
                throw new IOException("the test never let the model go on");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Test
    @Order(1)
    void everyFollowerAtEveryMomentAndEveryResumePointGetsTheSameEvents() throws Exception {
        for (boolean background : List.of(false, true)) {
            followAtEveryMoment(background);
        }
    }

    /**
     * A background response followed as a stream with the official {@code openai} package and
     * cancelled while it runs (the model holds): the stream ends with {@code response.failed}
     * carrying the cancelled response — no {@code error} event, which the SDK throws — and the
     * iteration ends normally.
     */
    @Test
    @Order(2)
    void aCancelledStreamEndsTheWayTheOpenAiClientTakesAsAnEnding() throws Exception {
        JsonObject seen = NodeClient.install("openai-client", "response-stream-it").run("cancel.mjs",
                ChatApprovalIT.pair().a().api.base + "/v1", TOKEN, ASKS);
        String output = seen.toString();
        assertEquals("response.failed", seen.getString("last_type"), output);
        assertEquals("cancelled", seen.getString("last_status"), output);
        assertEquals("cancelled", seen.getString("stored_status"), output);
        assertTrue(seen.getJsonArray("types").stream().noneMatch(t -> "\"error\"".equals(t.toString())), output);
    }

    private void followAtEveryMoment(boolean background) throws Exception {
        Api onA = ChatApprovalIT.pair().a().api.as(TOKEN);
        Api onB = ChatApprovalIT.pair().b().api.as(TOKEN);
        Growing live;
        String id;
        if (background) {
            Api.Reply created = onB.postJson("/v1/responses", Json.createObjectBuilder().add("model", "m")
                    .add("input", ASKS).add("background", true).build().toString());
            assertEquals(200, created.status(), created.body());
            id = created.json().getString("id");
            live = Growing.open(onA.request("/v1/responses/" + id + "?stream=true").GET());
        } else {
            live = Growing.open(onA.request("/v1/responses").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("model", "m")
                            .add("input", ASKS).add("stream", true).build().toString())));
            Await.until(Duration.ofSeconds(30), () -> live.frames().size() >= 1, "the stream's first event");
            id = json(live.frames().get(0)).getJsonObject("response").getString("id");
        }
        List<CompletableFuture<HttpResponse<String>>> joined = new ArrayList<>();
        Map<Long, List<CompletableFuture<HttpResponse<String>>>> resumed = new LinkedHashMap<>();
        Await.until(Duration.ofSeconds(30), () -> live.frames().size() >= 2, "response.in_progress");
        for (int word = 0; word <= WORDS.size(); word++) {
            // The model holds before this word (after the last one: before its completed response).
            joined.add(follow(word % 2 == 0 ? onB : onA, id, -1));
            long seen = sequence(live.frames().get(live.frames().size() - 1));
            for (long k = 0; k <= seen; k++) {
                resumed.computeIfAbsent(k, x -> new ArrayList<>()).add(follow(k % 2 == 0 ? onA : onB, id, k));
            }
            MODEL_MAY_GO_ON.release();
            if (word < WORDS.size()) {
                String said = String.join("", WORDS.subList(0, word + 1));
                Await.until(Duration.ofSeconds(30), () -> said.equals(deltas(live.frames())),
                        "the live stream has the text up to word " + word + ": " + said);
            }
        }
        String whole = live.whole(Duration.ofSeconds(60));
        List<String> frames = frames(whole);
        assertEquals(TEXT, deltas(frames), "the deltas add up to the text");
        JsonObject last = json(frames.get(frames.size() - 1));
        assertEquals("response.completed", last.getString("type"), whole);
        assertEquals(frames.size() - 1, last.getInt("sequence_number"), "numbered from 0 without a gap");
        assertEquals(WORDS.size(), frames.stream().filter(f -> f.contains("\"type\":\"response.output_text.delta\""))
                .count(), "one delta per word the model sent: " + whole);
        for (int i = 0; i < joined.size(); i++) {
            assertEquals(withoutPings(whole), body(joined.get(i)), "a follower that joined before word " + i);
        }
        for (Map.Entry<Long, List<CompletableFuture<HttpResponse<String>>>> k : resumed.entrySet()) {
            for (CompletableFuture<HttpResponse<String>> r : k.getValue()) {
                assertEquals(tail(frames, k.getKey()), body(r), "a resume after " + k.getKey() + " opened while it ran");
            }
        }
        assertEveryResumePoint(id, whole, List.of(onA, onB));
    }

    /** Every {@code starting_after} from none to the last event, on each of {@code apis}, gives the stream's tail. */
    private static void assertEveryResumePoint(String id, String whole, List<Api> apis) throws Exception {
        List<String> frames = frames(whole);
        for (Api on : apis) {
            assertEquals(withoutPings(whole), body(follow(on, id, -1)), "the whole stream replayed on " + on.base);
            for (long k = 0; k < frames.size(); k++) {
                assertEquals(tail(frames, k), body(follow(on, id, k)), "a resume after " + k + " on " + on.base);
            }
        }
    }

    private static CompletableFuture<HttpResponse<String>> follow(Api on, String id, long after) {
        String path = "/v1/responses/" + id + "?stream=true" + (after < 0 ? "" : "&starting_after=" + after);
        return Api.CLIENT.sendAsync(on.request(path).timeout(Duration.ofSeconds(120)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String body(CompletableFuture<HttpResponse<String>> stream) throws Exception {
        HttpResponse<String> r = stream.get(120, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        return withoutPings(r.body());
    }

    /** The stream after event {@code k}, as sent. */
    private static String tail(List<String> frames, long k) {
        StringBuilder tail = new StringBuilder();
        frames.stream().filter(f -> sequence(f) > k).forEach(f -> tail.append(f).append("\n\n"));
        return tail.append(DONE).toString();
    }

    private static String withoutPings(String body) {
        return body.replace(PING, "");
    }

    /** The events of a stream (keep-alives and [DONE] left out), each {@code event: …\ndata: …}. */
    private static List<String> frames(String body) {
        List<String> frames = new ArrayList<>();
        for (String frame : withoutPings(body).split("\n\n")) {
            if (frame.startsWith("event: ")) {
                frames.add(frame);
            }
        }
        return frames;
    }

    private static JsonObject json(String frame) {
        try (JsonReader reader = Json.createReader(new StringReader(frame.substring(frame.indexOf("\ndata: ") + 7)))) {
            return reader.readObject();
        }
    }

    private static long sequence(String frame) {
        return json(frame).getJsonNumber("sequence_number").longValue();
    }

    private static String deltas(List<String> frames) {
        return frames.stream().map(ResponseStreamIT::json).filter(e -> "response.output_text.delta".equals(e.getString("type")))
                .map(e -> e.getString("delta")).reduce("", String::concat);
    }

    /** A stream read as it arrives, on a thread of its own. */
    private static final class Growing {

        private final StringBuilder read = new StringBuilder();
        private final CompletableFuture<Void> ended = new CompletableFuture<>();

        static Growing open(HttpRequest.Builder request) {
            Growing g = new Growing();
            Api.CLIENT.sendAsync(request.timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofInputStream())
                    .thenAccept(r -> {
                        Thread reader = new Thread(() -> g.read(r.body()), "growing-stream");
                        reader.setDaemon(true);
                        reader.start();
                    }).exceptionally(e -> {
                        g.ended.completeExceptionally(e);
                        return null;
                    });
            return g;
        }

        private void read(InputStream in) {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    synchronized (read) {
                        read.append(new String(buffer, 0, n, StandardCharsets.UTF_8)); // ASCII here: no split characters
                    }
                }
                ended.complete(null);
            } catch (IOException e) {
                ended.completeExceptionally(e);
            }
        }

        /** The whole events read so far. */
        List<String> frames() {
            String sofar;
            synchronized (read) {
                sofar = read.toString();
            }
            int end = sofar.lastIndexOf("\n\n");
            return ResponseStreamIT.frames(end < 0 ? "" : sofar.substring(0, end + 2));
        }

        String whole(Duration timeout) throws Exception {
            ended.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            synchronized (read) {
                String body = read.toString();
                assertTrue(body.endsWith(DONE), body);
                return body;
            }
        }
    }
}
