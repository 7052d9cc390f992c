package dev.switchboard.core.notify;

import java.util.ArrayDeque;
import java.util.Set;

/**
 * One subscriber's view of the notification log: its filter (user, optionally threads), its
 * cursor (the last global seq considered) and a bounded queue of notifications waiting for the
 * transport to send them. Notifications arrive in seq order, first from a replay of the database,
 * then live; anything at or below the cursor is ignored, so the switch cannot repeat one, and the
 * hub switches a replaying subscription to live only when its cursor has reached the live tail,
 * so the switch cannot skip one. A subscriber whose queue is full is cut off ({@link Sink#overflow}).
 * A replay never waits for a slow subscriber: it {@linkplain #parkUntilRoom parks} and is resumed
 * by the transport taking from the queue, so no replay thread is held by a client that stops reading.
 */
public final class Subscription {

    /** The transport side: told when there is something to send, or that the subscriber fell behind. */
    public interface Sink {

        /** The queue went from empty to non-empty. Called without locks held. */
        void available();

        /** The queue overflowed and was dropped; {@code lastSentSeq} is the last seq handed to the transport. */
        void overflow(long lastSentSeq);
    }

    private final String userKey;
    private final Set<String> threads;
    private final int capacity;
    private final Sink sink;
    private final ArrayDeque<Notification> queue = new ArrayDeque<>();
    private long cursor;
    private long lastTaken;
    private boolean closed;
    /** A parked replay, run once the queue has room again. */
    private Runnable resumeReplay;
    /** The pruned-through mark already reported to this subscriber ({@code stream/gap}). */
    private long gapReported;

    /** {@code threads} null or empty: every thread of the user. */
    public Subscription(String userKey, Set<String> threads, int capacity, Sink sink) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.userKey = userKey;
        this.threads = threads == null || threads.isEmpty() ? null : Set.copyOf(threads);
        this.capacity = capacity;
        this.sink = sink;
    }

    public String userKey() {
        return userKey;
    }

    /** The threads it follows; null for every thread of its user. */
    Set<String> threads() {
        return threads;
    }

    synchronized void startAt(long seq) {
        cursor = seq;
        lastTaken = seq;
    }

    synchronized long cursor() {
        return cursor;
    }

    /** Moves the cursor forward over notifications that were read but did not match. */
    synchronized void advance(long seq) {
        cursor = Math.max(cursor, seq);
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    boolean matches(Notification n) {
        return userKey.equals(n.userKey())
                && (threads == null || n.threadKey() == null || threads.contains(n.threadKey()));
    }

    /** Offers the next notification in seq order; false when the subscription is (now) closed. */
    boolean offer(Notification n) {
        boolean wake;
        long overflowAt;
        synchronized (this) {
            if (closed) {
                return false;
            }
            if (n.seq() <= cursor) {
                return true;
            }
            cursor = n.seq();
            if (!matches(n)) {
                return true;
            }
            if (queue.size() >= capacity) {
                closed = true;
                queue.clear();
                overflowAt = lastTaken;
                wake = false;
            } else {
                wake = queue.isEmpty();
                queue.addLast(n);
                overflowAt = -1;
            }
        }
        if (overflowAt >= 0) {
            sink.overflow(overflowAt);
            return false;
        }
        if (wake) {
            sink.available();
        }
        return true;
    }

    /** Room for at least half the capacity (replay pauses until the transport has caught up). */
    synchronized boolean hasRoom() {
        return queue.size() <= capacity / 2;
    }

    /**
     * How many notifications a replay can hand over before it parks ({@link #parkUntilRoom}): a
     * replay reads no more than that, since what it read beyond would be read again after the park.
     */
    synchronized int replayRoom() {
        return Math.max(0, capacity / 2 + 1 - queue.size());
    }

    /**
     * Parks a replay until the queue has room: false (not parked) when it has room now; otherwise
     * {@code resume} runs once the transport has taken enough — or never, if the subscriber closes.
     */
    synchronized boolean parkUntilRoom(Runnable resume) {
        if (closed || hasRoom()) {
            return false;
        }
        resumeReplay = resume;
        return true;
    }

    /**
     * Queues a notice that is not part of the log (no seq, no filter) ahead of what follows, e.g.
     * a {@code stream/gap}; {@code prunedThrough} is the mark it reports, reported once.
     */
    void noticeGap(long prunedThrough, String line) {
        boolean wake;
        synchronized (this) {
            if (closed || prunedThrough <= gapReported) {
                return;
            }
            gapReported = prunedThrough;
            wake = queue.isEmpty();
            queue.addLast(new Notification(-1, userKey, null, "stream/gap", line, 0));
        }
        if (wake) {
            sink.available();
        }
    }

    /** The seq of the last notification handed to the transport. */
    public synchronized long lastTakenSeq() {
        return lastTaken;
    }

    public synchronized boolean hasQueued() {
        return !queue.isEmpty();
    }

    /** The next notification to send, or null; resumes a parked replay once there is room. */
    public Notification poll() {
        Notification n;
        Runnable resume = null;
        synchronized (this) {
            n = queue.pollFirst();
            if (n != null && n.seq() > 0) {
                lastTaken = n.seq();
            }
            if (resumeReplay != null && hasRoom()) {
                resume = resumeReplay;
                resumeReplay = null;
            }
        }
        if (resume != null) {
            resume.run();
        }
        return n;
    }

    /** Closes the subscription and tells the transport to disconnect the subscriber so it resumes. */
    void cutOff() {
        long at;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            queue.clear();
            resumeReplay = null;
            at = lastTaken;
        }
        sink.overflow(at);
    }

    /** Stops delivery; queued notifications are dropped. */
    public void close() {
        synchronized (this) {
            closed = true;
            queue.clear();
            resumeReplay = null;
        }
    }
}
