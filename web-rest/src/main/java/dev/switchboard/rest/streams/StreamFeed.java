package dev.switchboard.rest.streams;

import java.util.function.Consumer;

/**
 * What one open stream ({@link OpenStreams}) sends: its frames, produced when it is woken, never
 * by waiting. A feed is driven by one thread at a time.
 */
public interface StreamFeed {

    /**
     * The stream is open: take what it follows (a subscription, a run's end) and call
     * {@code wake} — from any thread, as often as it likes — whenever there may be something to
     * send. The first {@link #fill} follows at once.
     */
    void start(Runnable wake);

    /**
     * Hands {@code out} the frames that are ready, each whole.
     *
     * @return true when the stream ends after these frames
     */
    boolean fill(Consumer<byte[]> out);

    /** The frame that tells the client the stream is alive after a quiet keep-alive interval. */
    byte[] keepAlive();

    /** The stream is over (ended, its client gone, the server stopping): let go of what it took. Called once. */
    void close();

    /** A feed of one frame, {@code body}, and then its end: a one-time answer ({@link OpenStreams#answer}). */
    static StreamFeed once(byte[] body) {
        return new StreamFeed() {
            @Override
            public void start(Runnable wake) {
                wake.run();
            }

            @Override
            public boolean fill(Consumer<byte[]> out) {
                out.accept(body);
                return true;
            }

            @Override
            public byte[] keepAlive() {
                return new byte[0];
            }

            @Override
            public void close() {
                // nothing was taken
            }
        };
    }
}
