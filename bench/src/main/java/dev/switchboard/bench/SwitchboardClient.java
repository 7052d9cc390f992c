package dev.switchboard.bench;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
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
import java.util.List;

/** The three HTTP calls the benchmark makes, over one shared {@link HttpClient}. */
final class SwitchboardClient {

    /** One page of a thread's runs; {@code nextAfterSeq} is null on the last page. */
    record Page(List<Run> runs, Long nextAfterSeq) {
    }

    /** A response that the benchmark cannot go on from. */
    static final class BenchException extends RuntimeException {
        BenchException(String message) {
            super(message);
        }
    }

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final URI base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    SwitchboardClient(URI base) {
        this(base, null);
    }

    /** {@code token}: sent as {@code Authorization: Bearer <token>} unless null. */
    SwitchboardClient(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    /** Fails unless {@code GET /health/ready} answers 200. */
    void checkReady() throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(base.resolve("/health/ready")).GET());
        if (response.statusCode() != 200) {
            throw new BenchException("server at " + base + " is not ready: " + response.statusCode()
                    + " " + response.body());
        }
    }

    /** {@code POST /v1/messages}; anything but 202 is an error. */
    Run post(String threadKey, String text) throws IOException, InterruptedException {
        String body = Json.createObjectBuilder().add("thread_key", threadKey).add("text", text).build().toString();
        HttpResponse<String> response = send(HttpRequest.newBuilder(base.resolve("/v1/messages"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        if (response.statusCode() != 202) {
            throw new BenchException("POST /v1/messages for " + threadKey + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        return Run.of(parse(response.body()));
    }

    /** {@code POST /v1/messages/batch}: message j goes to thread {@code threadKeys[j]}; the runs in the same order. */
    List<Run> postBatch(List<String> threadKeys, List<String> texts) throws IOException, InterruptedException {
        JsonArrayBuilder messages = Json.createArrayBuilder();
        for (int j = 0; j < threadKeys.size(); j++) {
            messages.add(Json.createObjectBuilder().add("thread_key", threadKeys.get(j)).add("text", texts.get(j)));
        }
        String body = Json.createObjectBuilder().add("messages", messages).build().toString();
        HttpResponse<String> response = send(HttpRequest.newBuilder(base.resolve("/v1/messages/batch"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        if (response.statusCode() != 202) {
            throw new BenchException("POST /v1/messages/batch of " + threadKeys.size() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        return parse(response.body()).getJsonArray("runs").getValuesAs(JsonObject.class).stream().map(Run::of).toList();
    }

    /** {@code GET /v1/threads/{key}/runs}; null when the thread does not exist (404). */
    Page page(String threadKey, long afterSeq, int limit) throws IOException, InterruptedException {
        URI uri = base.resolve("/v1/threads/" + threadKey + "/runs?after_seq=" + afterSeq + "&limit=" + limit);
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri).GET());
        if (response.statusCode() == 404) {
            return null;
        }
        if (response.statusCode() != 200) {
            throw new BenchException("GET " + uri.getPath() + " answered " + response.statusCode()
                    + ": " + response.body());
        }
        JsonObject json = parse(response.body());
        List<Run> runs = json.getJsonArray("runs").getValuesAs(JsonObject.class).stream().map(Run::of).toList();
        JsonValue next = json.get("next_after_seq");
        Long nextAfterSeq = next == null || next.getValueType() == JsonValue.ValueType.NULL
                ? null : json.getJsonNumber("next_after_seq").longValue();
        return new Page(runs, nextAfterSeq);
    }

    /** What the server answered a webhook delivery: the status, and the JSON body of a {@code 202}. */
    record Delivered(int status, JsonObject answer) {
    }

    /** {@code POST /ingress/github/webhook} with the delivery's headers (no signature: the server has no secret). */
    Delivered deliverGithub(String event, String delivery, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(base.resolve("/ingress/github/webhook"))
                .header("Content-Type", "application/json").header("X-GitHub-Event", event)
                .header("X-GitHub-Delivery", delivery).POST(HttpRequest.BodyPublishers.ofString(body)));
        return new Delivered(response.statusCode(), response.statusCode() == 202 ? parse(response.body()) : null);
    }

    /** One page of {@code GET /v1/events?<query>}: {@code {"data":[…],"next_cursor":…}}. */
    JsonObject events(String query) throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(base.resolve("/v1/events?" + query)).GET());
        if (response.statusCode() != 200) {
            throw new BenchException("GET /v1/events answered " + response.statusCode() + ": " + response.body());
        }
        return parse(response.body());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject parse(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }
}
