package dev.switchboard.rest.streams;

import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotificationStream;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A stream of a user's notifications (optionally of some threads), from a resume point on, in the
 * frames of its wire ({@link Frames}): what {@code /rpc/stream} and the chat events send. The
 * stream's rules are {@link NotificationStream}'s: a subscriber too slow to keep up is cut off, gets
 * the overflow frame and the stream ends (the client resumes from its last seq).
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
    private NotificationStream stream;
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
        stream = new NotificationStream(hub, user, threads, capacity, wake, lastSentSeq -> wake.run());
        // Live before the greeting goes out: a client that has read it misses nothing after it.
        stream.open(after, start -> wake.run());
    }

    @Override
    public boolean fill(Consumer<byte[]> out) {
        if (!stream.isLive()) {
            return stream.isClosed(); // not live yet: the stream wakes the feed when it is
        }
        if (!greeted) {
            greeted = true;
            byte[] greeting = frames.greeting();
            if (greeting != null) {
                out.accept(greeting);
            }
        }
        for (Notification n = stream.next(); n != null; n = stream.next()) {
            byte[] frame = frames.notification(n);
            if (frame != null) {
                out.accept(frame);
            }
        }
        if (stream.overflowedAt() >= 0) {
            out.accept(frames.overflow(stream.overflowedAt()));
            return true;
        }
        return stream.isClosed();
    }

    @Override
    public byte[] keepAlive() {
        return frames.keepAlive();
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.close();
        }
    }
}
