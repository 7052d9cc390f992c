package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code openresponses}: each run is one request to a model server's Open Responses endpoint
 * ({@code POST <base-url>/responses}, not streamed, {@code store: false}) whose {@code input} is
 * the thread's history followed by the run's message, with the configured model, instructions and
 * output limit. The answer's assistant text becomes the run's {@code output.text}, with the
 * response's id, model and token usage beside it. A 429, a 5xx or a failed connection is tried
 * again after a growing pause (at most {@link Settings#retries} times, never past a cancellation);
 * any other 4xx fails the run with the server's own message. Cancelling the run aborts the request.
 * The API key goes only into the {@code Authorization} header: never into a log, an error or the
 * run's output.
 */
public final class OpenResponsesEngine implements AgentEngine {

    static final long FIRST_RETRY_MS = 250;

    /**
     * @param baseUrl the server's base, ending before {@code /responses} (e.g. {@code http://host:8080/v1})
     * @param retries how many times a transient failure is tried again
     */
    public record Settings(URI baseUrl, Optional<String> apiKey, String model, Optional<String> instructions,
            Duration requestTimeout, Optional<Integer> maxOutputTokens, int retries) {
    }

    private final Settings settings;
    private final HttpClient client;
    private final ScheduledExecutorService timer;

    public OpenResponsesEngine(Settings settings, HttpClient client, ScheduledExecutorService timer) {
        this.settings = settings;
        this.client = client;
        this.timer = timer;
    }

    @Override
    public String name() {
        return "openresponses";
    }

    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        CompletableFuture<JsonObject> result = new CompletableFuture<>();
        HttpRequest call = HttpRequest.newBuilder(settings.baseUrl().resolve(path(settings.baseUrl()) + "/responses"))
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .headers(settings.apiKey().map(key -> new String[] {"Authorization", "Bearer " + key}).orElse(new String[0]))
                .POST(HttpRequest.BodyPublishers.ofString(body(request).toString()))
                .build();
        attempt(call, request, result, 0);
        return result;
    }

    private void attempt(HttpRequest call, EngineRequest request, CompletableFuture<JsonObject> result, int retry) {
        if (request.cancelled()) {
            result.completeExceptionally(new EngineFailure("cancelled"));
            return;
        }
        CompletableFuture<HttpResponse<String>> sent = client.sendAsync(call, HttpResponse.BodyHandlers.ofString());
        request.cancellation().onCancel(() -> sent.cancel(true));
        sent.whenComplete((response, error) -> {
            if (result.isDone()) {
                return;
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            boolean transientFailure = cause instanceof IOException
                    || response != null && (response.statusCode() == 429 || response.statusCode() >= 500);
            if (transientFailure && retry < settings.retries() && !request.cancelled()) {
                timer.schedule(() -> attempt(call, request, result, retry + 1), FIRST_RETRY_MS << retry,
                        TimeUnit.MILLISECONDS);
            } else if (cause != null) {
                result.completeExceptionally(new EngineFailure(request.cancelled() ? "cancelled"
                        : "model server unreachable: " + cause.getClass().getSimpleName()
                                + (cause.getMessage() == null ? "" : ": " + cause.getMessage())));
            } else if (response.statusCode() / 100 != 2) {
                result.completeExceptionally(new EngineFailure("model server answered " + response.statusCode() + ": "
                        + errorMessage(response.body())));
            } else {
                try {
                    result.complete(output(response.body()));
                } catch (RuntimeException e) {
                    result.completeExceptionally(new EngineFailure("model server's answer is not a response: "
                            + e.getMessage()));
                }
            }
        });
    }

    private JsonObject body(EngineRequest request) {
        JsonArrayBuilder input = Jsons.createArrayBuilder();
        request.history().get().forEach(input::add);
        input.add(Jsons.createObjectBuilder().add("type", "message").add("role", "user")
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder()
                        .add("type", "input_text").add("text", request.inputText()))));
        JsonObjectBuilder body = Jsons.createObjectBuilder()
                .add("model", settings.model())
                .add("input", input)
                .add("stream", false)
                .add("store", false);
        settings.instructions().ifPresent(i -> body.add("instructions", i));
        settings.maxOutputTokens().ifPresent(m -> body.add("max_output_tokens", m));
        return body.build();
    }

    /** The run's output: the assistant's text, and what the response says of itself. */
    static JsonObject output(String body) {
        JsonObject response = parse(body);
        StringBuilder text = new StringBuilder();
        for (JsonValue value : response.getJsonArray("output")) {
            JsonObject item = value.asJsonObject();
            if (!"message".equals(item.getString("type", "")) || !"assistant".equals(item.getString("role", ""))) {
                continue;
            }
            for (JsonValue part : item.getJsonArray("content")) {
                JsonObject p = part.asJsonObject();
                if ("output_text".equals(p.getString("type", ""))) {
                    text.append(p.getString("text"));
                }
            }
        }
        JsonObjectBuilder output = Jsons.createObjectBuilder().add("type", "message").add("text", text.toString());
        if (response.get("id") instanceof JsonString id) {
            output.add("response_id", id.getString());
        }
        if (response.get("model") instanceof JsonString model) {
            output.add("model", model.getString());
        }
        if (response.get("usage") instanceof JsonObject usage) {
            output.add("usage", Jsons.createObjectBuilder()
                    .add("input_tokens", usage.getJsonNumber("input_tokens").longValue())
                    .add("output_tokens", usage.getJsonNumber("output_tokens").longValue()));
        }
        return output.build();
    }

    /** The server's {@code error.message} (Open Responses' error body), else the start of its body. */
    static String errorMessage(String body) {
        try {
            JsonObject error = parse(body).getJsonObject("error");
            if (error != null && error.get("message") instanceof JsonString message) {
                return message.getString();
            }
        } catch (RuntimeException notJson) {
            // fall through to the raw body
        }
        String raw = body == null ? "" : body.strip();
        return raw.length() > 200 ? raw.substring(0, 200) + "…" : raw;
    }

    private static JsonObject parse(String body) {
        try (JsonReader reader = Jsons.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    private static String path(URI base) {
        String path = base.getPath() == null ? "" : base.getPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
