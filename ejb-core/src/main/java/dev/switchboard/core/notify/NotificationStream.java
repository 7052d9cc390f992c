package dev.switchboard.core.notify;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * One subscriber's stream of notifications, whatever the wire (the WebSocket, the NDJSON stream,
 * chat's server-sent events): the one place a stream's rules live. It goes live from a resume point
 * (replayed from the database first) or from now — after a fresh pass of the pump, never waiting on
 * the caller's thread — and says so once, with the seq it starts after. It holds what waits for the
 * wire in its subscription's bounded queue; a subscriber that falls that far behind is cut off (its
 * wire says where to resume and ends the stream). The wire takes notifications when woken, on a
 * thread of its own; the hub's threads never write to a wire.
 */
public final class NotificationStream {

    private final NotificationHub hub;
    private final Subscription subscription;
    private final AtomicLong overflowAt = new AtomicLong(-1);
    private volatile boolean live;

    /**
     * @param threads the threads followed; null or empty: every thread of the user
     * @param wake called (without locks held) when notifications wait for the wire
     * @param overflow called once when the subscriber fell {@code capacity} behind, with the last seq
     *        handed to the wire: the stream is over, and the client resumes after that seq
     */
    public NotificationStream(NotificationHub hub, String user, Set<String> threads, int capacity, Runnable wake,
            LongConsumer overflow) {
        this.hub = hub;
        this.subscription = new Subscription(user, threads, capacity, new Subscription.Sink() {
            @Override
            public void available() {
                wake.run();
            }

            @Override
            public void overflow(long lastSentSeq) {
                overflowAt.set(lastSentSeq);
                overflow.accept(lastSentSeq);
            }
        });
    }

    /**
     * Starts the stream after {@code after} (null: from now); {@code onLive} runs once it is live,
     * with the seq it starts after — at once for a resume point, on the hub's thread for "from now".
     * A stream closed before it went live never runs it.
     */
    public void open(Long after, LongConsumer onLive) {
        if (after == null) {
            hub.subscribeFromNow(subscription, () -> {
                live = true;
                onLive.accept(subscription.lastTakenSeq());
            });
        } else {
            hub.subscribe(subscription, after); // the replay runs on a thread of the hub's
            live = true;
            onLive.accept(after);
        }
    }

    /** Whether it is live: only then does it take notifications. */
    public boolean isLive() {
        return live;
    }

    /** The next notification for the wire, in seq order; null when none waits. */
    public Notification next() {
        return subscription.poll();
    }

    public boolean hasNext() {
        return subscription.hasQueued();
    }

    /** The seq to resume after when the subscriber was cut off for falling behind; -1 while it keeps up. */
    public long overflowedAt() {
        return overflowAt.get();
    }

    /** Closed by the hub (cut off, or stopping) or by {@link #close}. */
    public boolean isClosed() {
        return subscription.isClosed();
    }

    public void close() {
        hub.unsubscribe(subscription);
    }
}
