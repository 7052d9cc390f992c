package dev.switchboard.it;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A small HTTP client for Switchboard's API over real sockets (JDK HttpClient). */
final class Api {

    /**
     * HTTP/1.1, as curl and the SDKs speak it. (The JDK client's default, an upgrade to cleartext
     * HTTP/2 on every new connection, trips Liberty when many upgrades arrive at once: a
     * NullPointerException in its upgrade handling and a GOAWAY to the client.)
     */
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    record Reply(int status, String body) {
        JsonObject json() {
            try (JsonReader r = Json.createReader(new StringReader(body))) {
                return r.readObject();
            }
        }

        String errorCode() {
            return json().getJsonObject("error").getString("code");
        }
    }

    final String base;
    /** The bearer token every request carries (null: none). */
    final String token;

    Api(String base) {
        this(base, null);
    }

    private Api(String base, String token) {
        this.base = base;
        this.token = token;
    }

    /** The same server as the user of {@code bearerToken}: every request carries it. */
    Api as(String bearerToken) {
        return new Api(base, bearerToken);
    }

    Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = CLIENT.send(request.timeout(Duration.ofSeconds(120)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    Reply get(String path) {
        return send(request(path).GET());
    }

    Reply postJson(String path, String json, String... headers) {
        HttpRequest.Builder b = request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    /** Posts a message and returns the 202 envelope. */
    JsonObject message(String threadKey, String text) {
        Reply r = postJson("/v1/messages", Json.createObjectBuilder()
                .add("thread_key", threadKey).add("text", text).build().toString());
        if (r.status() != 202) {
            throw new AssertionError("POST /v1/messages answered " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    /** Waits (long-poll) until the run is terminal; fails when it is not within the timeout (at least a minute). */
    JsonObject awaitRun(String runId, int askedSeconds) {
        int timeoutSeconds = (int) Await.bound(Duration.ofSeconds(askedSeconds)).toSeconds();
        Reply r = get("/v1/runs/" + runId + "/wait?timeout=" + timeoutSeconds);
        if (r.status() != 200) {
            throw new AssertionError("wait for " + runId + " answered " + r.status() + ": " + r.body());
        }
        JsonObject run = r.json();
        if ("running".equals(run.getString("status"))) {
            throw new AssertionError("run " + runId + " still running after " + timeoutSeconds + " s: " + run);
        }
        return run;
    }

    /** Every run of a thread in lane order, following the pages. */
    /** Whether the run is executing now, as {@code attempt}. */
    boolean isExecuting(String runId, int attempt) {
        JsonObject run = get("/v1/runs/" + runId).json();
        return "executing".equals(run.getString("state")) && run.getInt("attempt") == attempt;
    }

    List<JsonObject> threadRuns(String threadKey) {
        List<JsonObject> all = new ArrayList<>();
        long after = 0;
        while (true) {
            Reply r = get("/v1/threads/" + threadKey + "/runs?limit=200&after_seq=" + after);
            if (r.status() != 200) {
                throw new AssertionError("thread runs of " + threadKey + " answered " + r.status() + ": " + r.body());
            }
            JsonObject page = r.json();
            JsonArray runs = page.getJsonArray("runs");
            runs.forEach(v -> all.add(v.asJsonObject()));
            JsonValue next = page.get("next_after_seq");
            if (next == null || next.getValueType() == JsonValue.ValueType.NULL) {
                return all;
            }
            after = page.getJsonNumber("next_after_seq").longValue();
        }
    }
}
