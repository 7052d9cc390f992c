package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/** The chat gateway's calls as the chat tests make them, on a given instance. */
final class ChatCalls {

    static final Duration DEADLINE = Duration.ofSeconds(60);

    private ChatCalls() {
    }

    /** {@code token} null: none sent (an instance without tokens: the single user {@code local}). */
    static Api.Reply send(Instance on, String token, String channel, String threadId, String content) {
        String body = Json.createObjectBuilder().add("channel", channel).add("thread_id", threadId)
                .add("content", content).build().toString();
        return on.api.send(as(token, on.api.request("/v1/chat/messages"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    static Api.Reply get(Instance on, String token, String path) {
        return on.api.send(as(token, on.api.request(path)).GET());
    }

    private static HttpRequest.Builder as(String token, HttpRequest.Builder request) {
        return token == null ? request : request.header("Authorization", "Bearer " + token);
    }

    /** The body of a stream read for {@code seconds}. */
    static String get(Instance on, String token, String path, int seconds) throws Exception {
        return read(on, token, path, "*/*", text -> false, Duration.ofSeconds(seconds));
    }

    /**
     * The body of a stream ({@code accept}: its media type) read until what was read so far
     * satisfies {@code until}, or for at most {@code deadline}.
     */
    static String read(Instance on, String token, String path, String accept, java.util.function.Predicate<String> until,
            Duration deadline) throws Exception {
        java.net.http.HttpResponse<InputStream> response = Api.CLIENT.send(on.api.request(path)
                .header("Authorization", "Bearer " + token).header("Accept", accept).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        StringBuilder text = new StringBuilder();
        long end = System.nanoTime() + deadline.toNanos();
        try (InputStream in = response.body()) {
            byte[] buffer = new byte[8192];
            while (System.nanoTime() < end && !until.test(text.toString())) {
                if (in.available() > 0) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                } else {
                    Thread.sleep(20);
                }
            }
        }
        return text.toString();
    }

    static String threadOf(Api.Reply reply) {
        assertEquals(202, reply.status(), reply.body());
        return reply.json().getString("thread_id");
    }

    /** The response of the thread's {@code n}th turn, once it has ended. */
    static String lastResponse(Instance on, String token, String thread, int n) throws InterruptedException {
        String[] response = new String[1];
        Await.until(DEADLINE, () -> {
            List<JsonObject> turns = get(on, token, "/v1/chat/threads/" + thread).json().getJsonArray("turns")
                    .getValuesAs(JsonObject.class);
            if (turns.size() < n || turns.get(n - 1).get("completed_at").getValueType() == JsonValue.ValueType.NULL) {
                return false;
            }
            response[0] = turns.get(n - 1).isNull("response") ? null : turns.get(n - 1).getString("response");
            return true;
        }, "turn " + n + " of " + thread + " ends");
        return response[0];
    }

    static void assertError(Api.Reply reply, int status, String code) {
        assertEquals(status, reply.status(), reply.body());
        assertEquals(code, reply.errorCode(), reply.body());
    }
}
