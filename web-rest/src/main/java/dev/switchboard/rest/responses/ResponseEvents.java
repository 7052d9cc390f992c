package dev.switchboard.rest.responses;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.notify.Subscription;
import dev.switchboard.core.responses.ResponseError;
import dev.switchboard.core.responses.ResponseObjects;
import dev.switchboard.core.responses.ResponseService;
import dev.switchboard.rest.PushedStream;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One streamed response (spec §5): {@code response.created} and {@code response.in_progress} at
 * once, then the assistant's text as {@code response.output_text.delta} while the engine produces
 * it — read from the run's {@code item/delta} notifications, so the run may execute on any
 * instance — and, when the run ends, the rest of the text, the {@code .done} events of each output
 * item (function calls with their arguments), {@code response.completed} (or {@code error} then
 * {@code response.failed}) and {@code data: [DONE]}. Each frame is {@code event: <type>} and one
 * {@code data:} line, LF only, written and flushed whole; {@code sequence_number} counts from 0;
 * keep-alives are {@code : ping} comments. Over a WebSocket ({@link ResponsesSocket}) the same
 * events are one message each, without keep-alives or {@code [DONE]}. A client that goes away
 * stops the stream, not the run.
 */
final class ResponseEvents {

    private static final Logger LOG = Logger.getLogger(ResponseEvents.class.getName());

    private final ResponseService responses;
    private final NotificationHub hub;
    private final NotifySettings settings;
    private final ResponseService.Response created;
    private final long timeoutMs;
    private final String messageId;
    private final StringBuilder streamed = new StringBuilder();
    private final long startingAfter;
    private Sink out;
    private int sequence;
    private boolean messageOpen;

    /** @param startingAfter events up to this {@code sequence_number} are not sent (-1: all) */
    ResponseEvents(ResponseService responses, NotificationHub hub, NotifySettings settings,
            ResponseService.Response created, long timeoutMs, long startingAfter) {
        this.startingAfter = startingAfter;
        this.responses = responses;
        this.hub = hub;
        this.settings = settings;
        this.created = created;
        this.timeoutMs = timeoutMs;
        this.messageId = ResponseObjects.messageId(created.record().responseId());
    }

    /** Where the events go: server-sent events, or a WebSocket's messages. */
    interface Sink {

        void event(JsonObject event) throws IOException;

        /** Nothing happened for a while; tell the client the response is alive. */
        void keepAlive() throws IOException;

        /** After the terminal event. */
        void done() throws IOException;
    }

    /** Server-sent events (spec §5.3): {@code event:} equal to the type, one {@code data:} line, LF, flushed whole. */
    static Sink sse(OutputStream body) {
        OutputStream out = PushedStream.of(body);
        return new Sink() {
            @Override
            public void event(JsonObject e) throws IOException {
                frame("event: " + e.getString("type") + "\ndata: " + e + "\n\n");
            }

            @Override
            public void keepAlive() throws IOException {
                frame(": ping\n\n");
            }

            @Override
            public void done() throws IOException {
                frame("data: [DONE]\n\n");
            }

            private void frame(String frame) throws IOException {
                out.write(frame.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        };
    }

    /**
     * Sends the response's events to its end.
     *
     * @return the response as it ended, or null when the client went away first
     */
    ResponseService.Response write(Sink out) {
        this.out = out;
        Semaphore ready = new Semaphore(0);
        Subscription deltas = new Subscription(created.record().userKey(), Set.of(created.record().threadKey()),
                settings.buffer(), new Subscription.Sink() {
                    @Override
                    public void available() {
                        ready.release();
                    }

                    @Override
                    public void overflow(long lastSentSeq) {
                        ready.release(); // deltas are a preview: the end sends whatever text they missed
                    }
                });
        try {
            // The first bytes before anything else: a delta missed meanwhile is sent with the rest at the end.
            ResponseObjects.State first = created.state().isTerminal() ? ResponseObjects.State.inProgress() : created.state();
            send(event("response.created").add("response", ResponseObjects.response(created.record().responseId(),
                    created.record().createdAt(), created.record().previousResponseId(), created.record().request(), first)));
            send(event("response.in_progress").add("response", ResponseObjects.response(created.record().responseId(),
                    created.record().createdAt(), created.record().previousResponseId(), created.record().request(),
                    ResponseObjects.State.inProgress())));
            hub.subscribe(deltas, null);
            CompletableFuture<ResponseService.Response> end = responses.awaitEnd(created, timeoutMs).toCompletableFuture();
            end.whenComplete((r, e) -> ready.release());
            while (!end.isDone()) {
                drain(deltas);
                if (!ready.tryAcquire(settings.keepAliveMs(), TimeUnit.MILLISECONDS) && !end.isDone()) {
                    out.keepAlive();
                }
            }
            drain(deltas);
            ResponseService.Response finished = end.join();
            responses.answered(finished);
            finish(finished);
            out.done();
            return finished;
        } catch (IOException gone) {
            LOG.log(Level.FINE, () -> "The client of " + created.record().responseId() + " went away; the run goes on");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            hub.unsubscribe(deltas);
        }
        return null;
    }

    /** Sends the text of the run's {@code item/delta} notifications that arrived. */
    private void drain(Subscription deltas) throws IOException {
        for (Notification n = deltas.poll(); n != null; n = deltas.poll()) {
            if (!"item/delta".equals(n.method())) {
                continue;
            }
            JsonObject params = parse(n.line()).getJsonObject("params");
            if (created.record().runId().equals(params.getString("run_id", ""))) {
                delta(params.getString("delta", ""));
            }
        }
    }

    private void delta(String text) throws IOException {
        if (text.isEmpty()) {
            return;
        }
        openMessage();
        streamed.append(text);
        send(event("response.output_text.delta").add("item_id", messageId).add("output_index", 0)
                .add("content_index", 0).add("delta", text).add("logprobs", JsonValue.EMPTY_JSON_ARRAY));
    }

    private void openMessage() throws IOException {
        if (messageOpen) {
            return;
        }
        messageOpen = true;
        send(event("response.output_item.added").add("output_index", 0).add("item", Jsons.createObjectBuilder()
                .add("type", "message").add("id", messageId).add("status", "in_progress").add("role", "assistant")
                .add("content", JsonValue.EMPTY_JSON_ARRAY)));
        send(event("response.content_part.added").add("item_id", messageId).add("output_index", 0).add("content_index", 0)
                .add("part", ResponseObjects.textPart("")));
    }

    private void finish(ResponseService.Response finished) throws IOException {
        JsonObject response = finished.object();
        String status = response.getString("status");
        if (!"completed".equals(status)) {
            String message = response.get("error") instanceof JsonObject error ? error.getString("message", status)
                    : "in_progress".equals(status) || "queued".equals(status)
                            ? "the response did not end within " + timeoutMs + " ms" : "the response was " + status;
            ResponseError error = new ResponseError(500, "model_error", "failed".equals(status) ? "model_error" : status, "",
                    message);
            send(event("error").add("error", Jsons.createObjectBuilder().add("type", error.type()).add("code", error.code())
                    .add("message", error.getMessage()).add("param", error.param())));
            send(event("response.failed").add("response", response));
            return;
        }
        int index = 0;
        for (JsonValue value : response.getJsonArray("output")) {
            JsonObject item = value.asJsonObject();
            if ("message".equals(item.getString("type"))) {
                String text = item.getJsonArray("content").getJsonObject(0).getString("text");
                openMessage();
                String said = streamed.toString();
                delta(text.startsWith(said) ? text.substring(said.length()) : "");
                send(event("response.output_text.done").add("item_id", messageId).add("output_index", index)
                        .add("content_index", 0).add("text", text).add("logprobs", JsonValue.EMPTY_JSON_ARRAY));
                send(event("response.content_part.done").add("item_id", messageId).add("output_index", index)
                        .add("content_index", 0).add("part", ResponseObjects.textPart(text)));
            } else if ("function_call".equals(item.getString("type"))) {
                String id = item.getString("id");
                send(event("response.output_item.added").add("output_index", index).add("item",
                        Jsons.createObjectBuilder(item).add("arguments", "").add("status", "in_progress")));
                send(event("response.function_call_arguments.delta").add("item_id", id).add("output_index", index)
                        .add("delta", item.getString("arguments")));
                send(event("response.function_call_arguments.done").add("item_id", id).add("output_index", index)
                        .add("arguments", item.getString("arguments")));
            }
            send(event("response.output_item.done").add("output_index", index).add("item", item));
            index++;
        }
        send(event("response.completed").add("response", response));
    }

    private JsonObjectBuilder event(String type) {
        return Jsons.createObjectBuilder().add("type", type).add("sequence_number", sequence++);
    }

    /** One event as one frame: {@code event:} equal to its type, its JSON on one {@code data:} line. */
    private void send(JsonObjectBuilder event) throws IOException {
        JsonObject e = event.build();
        if (e.getInt("sequence_number") <= startingAfter) {
            return; // a replay resumes after what the client has
        }
        out.event(e);
    }

    private static JsonObject parse(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
