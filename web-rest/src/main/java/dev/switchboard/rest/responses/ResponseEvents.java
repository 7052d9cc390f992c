package dev.switchboard.rest.responses;

import dev.switchboard.core.history.RunTextPart;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.notify.Subscription;
import dev.switchboard.core.responses.ResponseError;
import dev.switchboard.core.responses.ResponseObjects;
import dev.switchboard.core.responses.ResponseService;
import dev.switchboard.core.responses.TextFollower;
import dev.switchboard.rest.streams.OpenStreams;
import dev.switchboard.rest.streams.StreamFeed;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One response's events (spec §5), as one sequence that every follower gets alike — live from the
 * create, late, resumed after any {@code sequence_number}, after the response ended, after a
 * restart, on another instance: the events are a function of what is stored, the text the run
 * streamed ({@code run_text}, one {@code response.output_text.delta} per kept part, in order) and
 * the run's result. So: {@code response.created} (status {@code queued} for a background response,
 * else {@code in_progress}) and {@code response.in_progress}; the message's
 * {@code output_item.added} and {@code content_part.added} before its first delta; a delta per part
 * — the parts kept when the follower came, then those its notifications bring ({@code item/delta}
 * with the part's number: each sent once, in order, and after a gap none until the end); once the
 * run ended, the parts still unseen (read again: an execution's text is
 * written before its result), the text the parts did not carry as one last delta, the
 * {@code .done} events of each output item (function calls with their arguments) and the terminal
 * event: {@code response.completed}; {@code error} then {@code response.failed} when the run failed
 * ({@code response.failed} alone over a WebSocket, where a turn has one ending);
 * {@code response.failed} alone, its response {@code cancelled}, when it was cancelled (nothing
 * went wrong: no {@code error} event, which clients raise). A follower that waits longer than the
 * run timeout gets one {@code error} ({@code timeout}), not part of the stored sequence.
 * <p>
 * As server-sent events each frame is {@code event: <type>} and one {@code data:} line, LF only,
 * written and flushed whole; keep-alives are {@code : ping} comments; {@code data: [DONE]} ends it.
 * Over a WebSocket ({@link ResponsesSocket}) the same events are one message each, without
 * keep-alives or {@code [DONE]}. A client that goes away stops the stream, not the run. The events
 * are made when something wakes them (a delta, the run's end), never by a thread that waits for
 * them — except the WebSocket's own ({@link #write}).
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
    /** Over a WebSocket a failure ends with {@code response.failed} alone: a turn has one ending there. */
    private final boolean oneEnding;
    /** Events made and not yet handed out. */
    private final List<JsonObject> ready = new ArrayList<>();
    private Subscription deltas;
    private CompletableFuture<Ending> end;
    private ResponseService.Response finished;
    /** The run's end could not be read: the stream ended with an error event. */
    private boolean broken;
    /** Which parts of the text go out: each once, in order. */
    private final TextFollower follower = new TextFollower();
    private int sequence;
    private boolean messageOpen;

    /** The run as it ended, with every part of its text. */
    private record Ending(ResponseService.Response response, List<RunTextPart> parts) {
    }

    /**
     * @param startingAfter events up to this {@code sequence_number} are not sent (-1: all)
     * @param oneEnding a WebSocket's: no {@code error} event before {@code response.failed} (its
     *        client takes the first ending event as the turn's, and would take the second as the next's)
     */
    ResponseEvents(ResponseService responses, NotificationHub hub, NotifySettings settings,
            ResponseService.Response created, long timeoutMs, long startingAfter, boolean oneEnding) {
        this.startingAfter = startingAfter;
        this.oneEnding = oneEnding;
        this.responses = responses;
        this.hub = hub;
        this.settings = settings;
        this.created = created;
        this.timeoutMs = timeoutMs;
        this.messageId = ResponseObjects.messageId(created.record().responseId());
    }

    /** Where the events go over a WebSocket: one message each. */
    interface Sink {

        void event(JsonObject event) throws IOException;
    }

    /**
     * Server-sent events (spec §5.3): {@code event:} equal to the type, one {@code data:} line, LF,
     * each written whole; {@code : ping} comments keep the stream alive; {@code data: [DONE]} ends it.
     * An open stream holds no thread ({@link OpenStreams}).
     */
    StreamFeed sse() {
        return new StreamFeed() {
            @Override
            public void start(Runnable wake) {
                ResponseEvents.this.start(wake);
            }

            @Override
            public boolean fill(Consumer<byte[]> out) {
                boolean ended = take(e -> out.accept(frame("event: " + e.getString("type") + "\ndata: " + e + "\n\n")));
                if (ended) {
                    out.accept(frame("data: [DONE]\n\n"));
                }
                return ended;
            }

            @Override
            public byte[] keepAlive() {
                return frame(": ping\n\n");
            }

            @Override
            public void close() {
                ResponseEvents.this.close();
            }
        };
    }

    private static byte[] frame(String frame) {
        return frame.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Begins, on the caller's thread (it reads the text kept so far): the first events and the
     * kept parts at once, then the parts the run's notifications bring and its end, each of which
     * calls {@code wake} (from any thread) when {@link #take} has more to hand out.
     */
    void start(Runnable wake) {
        ResponseService.Response r = created;
        ResponseObjects.State first = r.record().request().getBoolean("background", false)
                ? ResponseObjects.State.queued() : ResponseObjects.State.inProgress();
        send(event("response.created").add("response", ResponseObjects.response(r.record().responseId(),
                r.record().createdAt(), r.record().previousResponseId(), r.record().request(), first)));
        send(event("response.in_progress").add("response", ResponseObjects.response(r.record().responseId(),
                r.record().createdAt(), r.record().previousResponseId(), r.record().request(),
                ResponseObjects.State.inProgress())));
        if (!r.state().isTerminal()) {
            deltas = new Subscription(r.record().userKey(), Set.of(r.record().threadKey()), settings.buffer(),
                    new Subscription.Sink() {
                        @Override
                        public void available() {
                            wake.run();
                        }

                        @Override
                        public void overflow(long lastSentSeq) {
                            follower.missedSome();
                            wake.run();
                        }
                    });
            // Subscribed first, then the catch-up read: a part committed before the read is in it, one
            // sequenced after the subscription went live comes through it. One in between — committed
            // after the read, delivered before the subscription was live — is missed by both: the next
            // live part is then not the successor of the last one sent, and the parts wait for the
            // run's end, which reads them all (never a replay of the log: a burst of followers would
            // each read the user's whole log from the database).
            hub.subscribeFromNow(deltas, wake);
            responses.streamed(r).forEach(this::stored);
        }
        end = responses.awaitEnd(r, timeoutMs).thenApply(ended -> new Ending(ended,
                ended.state().isTerminal() ? responses.streamed(ended) : List.of())).toCompletableFuture();
        end.whenComplete((ended, e) -> wake.run());
    }

    /**
     * Hands {@code out} the events made since last time: the deltas that arrived, and once the run
     * ended the rest of the response to its terminal event.
     *
     * @return true when the terminal event was handed out
     */
    boolean take(Consumer<JsonObject> out) {
        if (finished == null && !broken) {
            if (deltas != null) {
                drain(deltas);
            }
            if (end.isDone()) {
                try {
                    Ending ending = end.join();
                    finished = ending.response();
                    ending.parts().forEach(this::stored);
                    responses.answered(finished);
                    finish(finished);
                } catch (RuntimeException e) {
                    // The run's end could not be read (the database did not answer in time): the
                    // client gets an error event and the end of the stream, not a stream cut short.
                    String id = created.record().responseId();
                    LOG.log(Level.WARNING, "The end of " + id + " could not be read; its stream ends with an error", e);
                    broken = true;
                    send(error(new ResponseError(500, "server_error", "server_error", "",
                            "the response's end could not be read; retrieve it with GET /v1/responses/" + id)));
                }
            }
        }
        ready.forEach(out);
        ready.clear();
        return finished != null || broken;
    }

    void close() {
        if (deltas != null) {
            hub.unsubscribe(deltas);
        }
    }

    /**
     * Sends the response's events to its end over a WebSocket, on the calling thread (one of the
     * socket's own, {@link ResponseStreams}).
     *
     * @return the response as it ended, or null when the client went away first
     */
    ResponseService.Response write(Sink out) {
        Semaphore wake = new Semaphore(0);
        try {
            start(wake::release);
            List<JsonObject> events = new ArrayList<>();
            while (true) {
                boolean ended = take(events::add);
                for (JsonObject e : events) {
                    out.event(e);
                }
                events.clear();
                if (ended) {
                    return finished;
                }
                wake.acquire();
            }
        } catch (IOException gone) {
            LOG.log(Level.FINE, () -> "The client of " + created.record().responseId() + " went away; the run goes on");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
        return null;
    }

    /** Sends the parts the run's {@code item/delta} notifications brought, as {@link TextFollower} rules. */
    private void drain(Subscription deltas) {
        for (Notification n = deltas.poll(); n != null; n = deltas.poll()) {
            if (!"item/delta".equals(n.method())) {
                continue;
            }
            JsonObject params = parse(n.line()).getJsonObject("params");
            if (created.record().runId().equals(params.getString("run_id", "")) && params.containsKey("part")) {
                RunTextPart live = new RunTextPart(params.getInt("attempt"), params.getInt("part"),
                        params.getString("delta", ""));
                if (follower.live(live)) {
                    delta(live.text());
                }
            }
        }
    }

    /** Sends a part read from the store unless it was sent already. */
    private void stored(RunTextPart part) {
        if (follower.stored(part)) {
            delta(part.text());
        }
    }

    private void delta(String text) {
        if (text.isEmpty()) {
            return;
        }
        openMessage();
        streamed.append(text);
        send(event("response.output_text.delta").add("item_id", messageId).add("output_index", 0)
                .add("content_index", 0).add("delta", text).add("logprobs", JsonValue.EMPTY_JSON_ARRAY));
    }

    private void openMessage() {
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

    private void finish(ResponseService.Response finished) {
        JsonObject response = finished.object();
        String status = response.getString("status");
        if (!finished.state().isTerminal()) {
            send(error(new ResponseError(500, "server_error", "timeout", "",
                    "the response did not end within " + timeoutMs + " ms; follow it again with starting_after")));
            return;
        }
        if ("cancelled".equals(status)) {
            send(event("response.failed").add("response", response));
            return;
        }
        if (!"completed".equals(status)) {
            String message = response.get("error") instanceof JsonObject error ? error.getString("message", status)
                    : "the response was " + status;
            if (!oneEnding) {
                send(error(new ResponseError(500, "model_error", "model_error", "", message)));
            }
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

    private JsonObjectBuilder error(ResponseError error) {
        return event("error").add("error", error.toJson());
    }

    private JsonObjectBuilder event(String type) {
        return Jsons.createObjectBuilder().add("type", type).add("sequence_number", sequence++);
    }

    /** One event as one frame: {@code event:} equal to its type, its JSON on one {@code data:} line. */
    private void send(JsonObjectBuilder event) {
        JsonObject e = event.build();
        if (e.getInt("sequence_number") <= startingAfter) {
            return; // a replay resumes after what the client has
        }
        ready.add(e);
    }

    private static JsonObject parse(String json) {
        return Jsons.readObject(json);
    }
}
