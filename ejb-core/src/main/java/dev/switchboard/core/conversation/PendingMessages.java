package dev.switchboard.core.conversation;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Messages that arrived while the thread's turn was working (spec §3.2, §7.1): at most
 * {@link #MAX} wait; when the turn ends they are merged, one per line, into the next turn. A merged
 * batch whose turn could not run goes back to the front, whatever the cap.
 */
public final class PendingMessages {

    public static final int MAX = 10;

    private final Deque<String> queue;

    public PendingMessages() {
        this(List.of());
    }

    /** A queue holding {@code waiting} (as stored), in order. */
    public PendingMessages(List<String> waiting) {
        this.queue = new ArrayDeque<>(waiting);
    }

    /** Queues {@code text}; false when {@link #MAX} already wait. */
    public boolean offer(String text) {
        if (queue.size() >= MAX) {
            return false;
        }
        queue.addLast(text);
        return true;
    }

    public Optional<String> take() {
        return Optional.ofNullable(queue.pollFirst());
    }

    /** Everything waiting, joined by newlines, and the queue emptied; empty when nothing waits. */
    public Optional<String> drain() {
        if (queue.isEmpty()) {
            return Optional.empty();
        }
        String merged = String.join("\n", queue);
        queue.clear();
        return Optional.of(merged);
    }

    /** Puts a drained batch back in front, ignoring the cap. */
    public void requeueDrained(String merged) {
        queue.addFirst(merged);
    }

    public void clear() {
        queue.clear();
    }

    public int size() {
        return queue.size();
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /** What waits, first first (to store it). */
    public List<String> waiting() {
        return List.copyOf(queue);
    }
}
