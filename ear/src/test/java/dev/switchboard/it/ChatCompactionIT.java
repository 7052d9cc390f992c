package dev.switchboard.it;

import static dev.switchboard.it.ChatCalls.lastResponse;
import static dev.switchboard.it.ChatCalls.send;
import static dev.switchboard.it.ChatCalls.threadOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Compaction without being asked (spec §11.1, §11.3), on the {@code openresponses} engine against a
 * scripted model server and a context limit of 950 tokens: a person's message to a thread whose
 * context is past the threshold first has the older turns summarised, in a turn queued ahead of
 * it, so the model gets the summary and the newest five turns; and a model that refuses an input
 * longer than its context is asked once more with the newest exchange only.
 *
 * <p>The model answers {@code heard: <text>}; to a message starting {@code overflow}, when the
 * input holds more than it, it refuses as OpenAI does ({@code context_length_exceeded}). Instance and
 * model server are ChatAuthIT's, which hands this class the requests that carry its {@link #MARK}
 * (every message here begins with it, so every request of its threads holds it).
 */
class ChatCompactionIT {

    private static final String ALICE = "alice-compaction-token-01234";
    /** Its user, as the instance's setting lists it. */
    static final String USER = ALICE + "=compaction-alice";
    /** The word every message of this class begins with (as long as the word it stands in for: the same estimate of tokens). */
    private static final String MARK = "cmpct";
    private static final List<JsonObject> REQUESTS = new CopyOnWriteArrayList<>();
    private static Instance server;

    @BeforeAll
    static void start() {
        server = ChatAuthIT.withContextLimit();
    }

    @AfterAll
    static void stop() {
        ChatAuthIT.finished(ChatCompactionIT.class);
    }

    /** Whether {@code request} is one of this class's threads' model requests. */
    static boolean asks(JsonObject request) {
        return request.getJsonArray("input").toString().contains(MARK + " ");
    }

    /** Fifty words: with its reply, a turn of about 140 estimated tokens. */
    private static String words(String marker) {
        return MARK + " " + IntStream.range(0, 49).mapToObj(i -> marker + i).collect(Collectors.joining(" "));
    }

    @Test
    void aFullContextIsSummarisedBeforeThePersonsTurn() throws Exception {
        String thread = null;
        for (int turn = 1; turn <= 6; turn++) {
            Api.Reply sent = send(server, ALICE, "web", "compact-1", words("t" + turn + "w"));
            thread = threadOf(sent);
            assertTrue(sent.json().isNull("message"), "below the threshold nothing is compacted: " + sent.body());
            lastResponse(server, ALICE, thread, turn);
        }
        Api.Reply seventh = send(server, ALICE, "web", "compact-1", MARK + " and now?");
        assertEquals(202, seventh.status(), seventh.body());
        assertEquals("Context at 88% capacity, compacting...", seventh.json().getString("message"));
        assertEquals("heard: " + MARK + " and now?", lastResponse(server, ALICE, thread, 8), "the summary's turn came first");
        JsonArray input = REQUESTS.get(REQUESTS.size() - 1).getJsonArray("input");
        String sent = input.toString();
        assertTrue(text(input.getJsonObject(0)).startsWith("[Summary of the earlier conversation]\nheard: "), "the summary heads the context: " + sent);
        assertEquals(1 + 5 * 2 + 1, input.size(), "the summary, the newest five turns, the message: " + sent);
        assertFalse(input.stream().skip(1).anyMatch(i -> i.toString().contains("t1w0 ")), "turn 1 is summarised away");
        assertTrue(sent.contains("t2w0 "), "turn 2 is kept");
        JsonObject summaryRequest = REQUESTS.get(REQUESTS.size() - 2);
        assertTrue(summaryRequest.toString().contains("Please summarize this conversation"), summaryRequest.toString());
    }

    @Test
    void aModelThatRefusesTooLongAnInputIsAskedOnceMoreWithTheNewestExchange() throws Exception {
        String thread = threadOf(send(server, ALICE, "web", "overflow-1", MARK + " first words"));
        lastResponse(server, ALICE, thread, 1);
        send(server, ALICE, "web", "overflow-1", MARK + " overflow please");
        assertEquals("heard: " + MARK + " overflow please", lastResponse(server, ALICE, thread, 2));
        JsonArray retried = REQUESTS.get(REQUESTS.size() - 1).getJsonArray("input");
        assertEquals(2, retried.size(), retried.toString());
        assertTrue(text(retried.getJsonObject(0)).startsWith("[Note: Earlier conversation history was automatically"
                + " compacted"), retried.toString());
        assertEquals(MARK + " overflow please", text(retried.getJsonObject(1)));
    }

    private static String text(JsonObject item) {
        return item.getJsonArray("content").getJsonObject(0).getString("text");
    }

    /** ChatAuthIT's model server hands this class's requests here. */
    static void answer(HttpExchange exchange, JsonObject request) throws IOException {
        REQUESTS.add(request);
        JsonArray input = request.getJsonArray("input");
        String text = text(ScriptedResponses.last(request));
        if (text.startsWith(MARK + " overflow") && input.size() > 2) {
            byte[] body = "{\"error\":{\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\",\"message\":\"This model's maximum context length is 16 tokens\"}}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(400, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            return;
        }
        ScriptedResponses.stream(exchange, "resp_" + REQUESTS.size(),
                Json.createArrayBuilder().add(ScriptedResponses.message("heard: " + text)).build());
    }
}
