package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.ModelCall;
import dev.switchboard.core.engine.model.ModelReply;
import dev.switchboard.core.engine.model.ModelStreamException;
import dev.switchboard.core.engine.model.SseLines;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The model server over HTTP, for the {@link ModelServerEngine}: one model call posted in its
 * API's wire format ({@link ModelServerEngine.Settings#wire}), its answer read as a stream of
 * server-sent events or whole, its outcome turned into a {@link ModelReply} or an
 * {@link EngineFailure} with the server's own message. A 429, a 5xx or a failed connection is
 * tried again after a growing pause, at most {@link ModelServerEngine.Settings#retries} times,
 * never past a cancellation and never once text of that call was shown. The API key goes only
 * into the {@code Authorization} header.
 */
final class ModelServerClient {

    static final long FIRST_RETRY_MS = 250;

    private final ModelServerEngine.Settings settings;
    private final HttpClient client;
    private final ScheduledExecutorService timer;

    ModelServerClient(ModelServerEngine.Settings settings, HttpClient client, ScheduledExecutorService timer) {
        this.settings = settings;
        this.client = client;
        this.timer = timer;
    }

    /** Sends {@code call} for the run of {@code request}: completes with the model's reply, or fails the call. */
    CompletableFuture<ModelReply> send(EngineRequest request, ModelCall call) {
        CompletableFuture<ModelReply> reply = new CompletableFuture<>();
        attempt(request, request(call), reply, 0);
        return reply;
    }

    private HttpRequest request(ModelCall call) {
        HttpRequest.Builder request = HttpRequest.newBuilder(settings.baseUrl().resolve(path(settings.baseUrl())
                        + settings.wire().path()))
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream, application/json")
                .POST(HttpRequest.BodyPublishers.ofString(settings.wire().body(call).toString()));
        settings.apiKey().ifPresent(key -> request.header("Authorization", "Bearer " + key));
        return request.build();
    }

    /**
     * One try of one model call. Its outcome is settled once, by whichever comes first: the stream's
     * end (a streamed answer), the whole body (an error status, or a server that does not stream),
     * or the request's failure (connection, cancellation).
     */
    private void attempt(EngineRequest request, HttpRequest call, CompletableFuture<ModelReply> reply, int retry) {
        if (request.cancelled()) {
            reply.completeExceptionally(new EngineFailure("cancelled"));
            return;
        }
        Try attempt = new Try(request, call, reply, retry);
        CompletableFuture<HttpResponse<String>> sent = client.sendAsync(call, info -> {
            int status = info.statusCode();
            if (status / 100 == 2 && info.headers().firstValue("Content-Type").orElse("").contains("text/event-stream")) {
                SseLines lines = new SseLines(settings.wire().reader(request.stream()));
                attempt.lines = lines;
                request.cancellation().onCancel(lines::cancel);
                lines.reply().whenComplete((answer, error) -> attempt.settle(status, null, answer, error));
                return HttpResponse.BodySubscribers.fromLineSubscriber(lines, l -> null, StandardCharsets.UTF_8, null);
            }
            return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8),
                    body -> {
                        attempt.settle(status, body, null, null);
                        return body;
                    });
        });
        request.cancellation().onCancel(() -> sent.cancel(true));
        sent.whenComplete((response, error) -> {
            if (error != null) {
                attempt.settle(0, null, null, error);
            }
        });
    }

    /** The state of one try: settled once. */
    private final class Try {
        final EngineRequest request;
        final HttpRequest call;
        final CompletableFuture<ModelReply> reply;
        final int retry;
        volatile SseLines lines;
        private boolean settled;

        Try(EngineRequest request, HttpRequest call, CompletableFuture<ModelReply> reply, int retry) {
            this.request = request;
            this.call = call;
            this.reply = reply;
            this.retry = retry;
        }

        void settle(int status, String body, ModelReply streamed, Throwable error) {
            synchronized (this) {
                if (settled) {
                    return;
                }
                settled = true;
            }
            Throwable cause = unwrap(error);
            SseLines reading = lines;
            boolean shown = reading != null && reading.reader().streamedAny();
            boolean transientFailure = cause instanceof IOException || cause == null && (status == 429 || status >= 500);
            if (transientFailure && retry < settings.retries() && !shown && !request.cancelled()) {
                timer.schedule(() -> attempt(request, call, reply, retry + 1), FIRST_RETRY_MS << retry, TimeUnit.MILLISECONDS);
            } else if (request.cancelled()) {
                reply.completeExceptionally(new EngineFailure("cancelled"));
            } else if (cause instanceof ModelStreamException) {
                reply.completeExceptionally(new EngineFailure(cause.getMessage()));
            } else if (cause != null) {
                reply.completeExceptionally(new EngineFailure("model server unreachable: " + cause.getClass().getSimpleName()
                        + (cause.getMessage() == null ? "" : ": " + cause.getMessage())));
            } else if (status / 100 != 2) {
                String message = "model server answered " + status + ": " + errorMessage(body);
                reply.completeExceptionally(ContextOverflow.isOverflow(status, body) ? new ContextOverflow.Exceeded(message)
                        : new EngineFailure(message));
            } else if (streamed != null) {
                reply.complete(streamed);
            } else {
                try {
                    reply.complete(settings.wire().whole(parse(body)));
                } catch (RuntimeException e) {
                    reply.completeExceptionally(new EngineFailure(e instanceof ModelStreamException ? e.getMessage()
                            : "model server's answer is not a response: " + e.getMessage()));
                }
            }
        }
    }

    /** The server's {@code error.message} (the error body of both APIs), else the start of its body. */
    static String errorMessage(String body) {
        try {
            JsonObject error = parse(body).getJsonObject("error");
            if (error != null && error.get("message") instanceof jakarta.json.JsonString message) {
                return message.getString();
            }
        } catch (RuntimeException notJson) {
            // fall through to the raw body
        }
        String raw = body == null ? "" : body.strip();
        return raw.length() > 200 ? raw.substring(0, 200) + "…" : raw;
    }

    static JsonObject parse(String body) {
        return Jsons.readObject(body);
    }

    /** The failure a completion stage's {@link CompletionException} wraps. */
    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String path(URI base) {
        String path = base.getPath() == null ? "" : base.getPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
