package dev.switchboard.core.engine.model;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Reads a server-sent event stream line by line (as the HTTP client's line subscriber delivers
 * it) into events for an {@link ModelWire.EventReader}: {@code event:} names the next event,
 * {@code data:} lines join with a newline, a blank line dispatches, {@code :} lines are comments.
 * {@link #reply()} completes with the reader's reply when the stream ends, or exceptionally with
 * the first failure — the rest of the stream is then not read.
 */
public final class SseLines implements Flow.Subscriber<String> {

    private final ModelWire.EventReader reader;
    private final CompletableFuture<ModelReply> reply = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;
    private String event;
    private StringBuilder data;

    public SseLines(ModelWire.EventReader reader) {
        this.reader = reader;
    }

    public CompletableFuture<ModelReply> reply() {
        return reply;
    }

    public ModelWire.EventReader reader() {
        return reader;
    }

    /** Stops reading (the run was cancelled). */
    public void cancel() {
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(String line) {
        if (reply.isDone()) {
            return;
        }
        try {
            if (line.isEmpty()) {
                dispatch();
            } else if (line.startsWith("data:")) {
                if (data == null) {
                    data = new StringBuilder();
                } else {
                    data.append('\n');
                }
                data.append(value(line, 5));
            } else if (line.startsWith("event:")) {
                event = value(line, 6);
            }
        } catch (RuntimeException e) {
            reply.completeExceptionally(e);
            cancel();
        }
    }

    @Override
    public void onError(Throwable error) {
        reply.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        if (reply.isDone()) {
            return;
        }
        try {
            dispatch();
            reply.complete(reader.end());
        } catch (RuntimeException e) {
            reply.completeExceptionally(e);
        }
    }

    private void dispatch() {
        if (data != null) {
            String name = event;
            String text = data.toString();
            event = null;
            data = null;
            reader.event(name, text);
        } else {
            event = null;
        }
    }

    private static String value(String line, int from) {
        return line.length() > from && line.charAt(from) == ' ' ? line.substring(from + 1) : line.substring(from);
    }
}
