package dev.switchboard.rest.streams;

import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.Subscription;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A stream of a user's notifications (optionally of some threads), from a resume point on, in the
 * frames of its wire ({@link Frames}): what {@code /rpc/stream} and the chat events send. A
 * subscriber too slow to keep up is cut off by the hub: it gets the overflow frame and the stream
 * ends (the client resumes from its last seq).
 */
public final class NotificationFeed implements StreamFeed {

    /** How a wire writes a stream. */
    public interface Frames {

        /** The first frame, sent once the subscription is live (null: none). */
        byte[] greeting();

        /** The frame of {@code n}, or null when this stream does not show it. */
        byte[] notification(Notification n);

        byte[] overflow(long lastSentSeq);

        byte[] keepAlive();
    }

    private final NotificationHub hub;
    private final String user;
    private final Set<String> threads;
    private final int capacity;
    private final Long after;
    private final Frames frames;
    private final AtomicLong overflowAt = new AtomicLong(-1);
    private Subscription subscription;
    /** The subscription takes notifications: only then may the greeting say so. */
    private volatile boolean live;
    private boolean greeted;

    /**
     * @param threads the threads followed; null: all of the user's
     * @param after the seq to resume after; null: from now
     */
    public NotificationFeed(NotificationHub hub, String user, Set<String> threads, int capacity, Long after, Frames frames) {
        this.hub = hub;
        this.user = user;
        this.threads = threads;
        this.capacity = capacity;
        this.after = after;
        this.frames = frames;
    }

    @Override
    public void start(Runnable wake) {
        subscription = new Subscription(user, threads, capacity, new Subscription.Sink() {
            @Override
            public void available() {
                wake.run();
            }

            @Override
            public void overflow(long lastSentSeq) {
                overflowAt.set(lastSentSeq);
                wake.run();
            }
        });
        // Live before the greeting goes out: a client that has read it misses nothing after it.
        if (after == null) {
            hub.subscribeFromNow(subscription, () -> {
                live = true;
                wake.run();
            });
        } else {
            hub.subscribe(subscription, after); // the replay starts on a thread of the hub's
            live = true;
        }
    }

    @Override
    public boolean fill(Consumer<byte[]> out) {
        if (!live) {
            return subscription.isClosed(); // not live yet: the hub wakes the stream when it is
        }
        if (!greeted) {
            greeted = true;
            byte[] greeting = frames.greeting();
            if (greeting != null) {
                out.accept(greeting);
            }
        }
        for (Notification n = subscription.poll(); n != null; n = subscription.poll()) {
            byte[] frame = frames.notification(n);
            if (frame != null) {
                out.accept(frame);
            }
        }
        if (overflowAt.get() >= 0) {
            out.accept(frames.overflow(overflowAt.get()));
            return true;
        }
        return subscription.isClosed();
    }

    @Override
    public byte[] keepAlive() {
        return frames.keepAlive();
    }

    @Override
    public void close() {
        if (subscription != null) {
            hub.unsubscribe(subscription);
        }
    }
}
