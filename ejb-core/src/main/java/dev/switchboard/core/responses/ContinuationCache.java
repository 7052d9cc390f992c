package dev.switchboard.core.responses;

import dev.switchboard.core.responses.ResponseService.Continuation;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A WebSocket connection's memory of its responses (spec §9): what each of its last responses
 * continues into, so that one made with {@code store: false} can still be continued on the same
 * connection. A continuation that fails evicts the response it continued. Bounded: the least
 * recently used goes first.
 */
public final class ContinuationCache {

    private final Map<String, Continuation> entries;

    public ContinuationCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Continuation> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Remembers what a response that ended continues into, under its id. */
    public synchronized void remember(Continuation after) {
        entries.put(after.previousResponseId(), after);
    }

    /**
     * A response made on the connection ended (null: its client went away first): a completed one
     * is remembered; otherwise the response it continued, if any, is evicted.
     */
    public synchronized void ended(Optional<String> previousResponseId, ResponseService.Response finished) {
        if (finished != null && "completed".equals(finished.state().status())) {
            remember(Continuation.after(finished));
        } else {
            failed(previousResponseId);
        }
    }

    /** A request that continued {@code previousResponseId} failed: that response is evicted. */
    public synchronized void failed(Optional<String> previousResponseId) {
        previousResponseId.ifPresent(entries::remove);
    }

    public synchronized Optional<Continuation> find(String responseId) {
        return Optional.ofNullable(entries.get(responseId));
    }

    public synchronized void evict(String responseId) {
        entries.remove(responseId);
    }
}
