package dev.switchboard.rest.streams;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One open stream: its feed's frames written with the servlet's non-blocking output. Writing is
 * one method ({@link #pump}) that runs on a writer thread when the feed wakes it, and on the
 * container's thread when a socket that was full can take more; it stops as soon as the socket
 * cannot take a frame, and goes on where it stopped.
 */
final class OpenStream implements WriteListener, AsyncListener {

    private static final Logger LOG = Logger.getLogger(OpenStream.class.getName());

    private final OpenStreams streams;
    private final AsyncContext context;
    private final StreamFeed feed;
    /** A pump is queued on the writers: wakes meanwhile need no other. */
    private final AtomicBoolean queued = new AtomicBoolean();
    private final AtomicBoolean over = new AtomicBoolean();
    private final ArrayDeque<byte[]> frames = new ArrayDeque<>();
    private ServletOutputStream out;
    private boolean unflushed;
    private boolean ended;
    private boolean keepAliveDue;
    private volatile long lastWriteNanos = System.nanoTime();

    OpenStream(OpenStreams streams, AsyncContext context, StreamFeed feed) {
        this.streams = streams;
        this.context = context;
        this.feed = feed;
    }

    /** Starts the feed, before the response's head goes out: a feed that cannot start fails the request. */
    void start() {
        context.addListener(this);
        feed.start(this::wake); // a wake before the output is set pumps nothing: its first pump follows below
    }

    /** Writes from now on: the container calls {@link #onWritePossible} once the listener is set, the first pump. */
    synchronized void attach() {
        try {
            out = context.getResponse().getOutputStream();
            out.setWriteListener(this);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "A stream could not start", e);
            end();
        }
    }

    /** Something may be ready to send: pump on a writer thread (at most one queued at a time). */
    void wake() {
        if (over.get() || !queued.compareAndSet(false, true)) {
            return;
        }
        try {
            streams.write(() -> {
                queued.set(false);
                pump();
            });
        } catch (RejectedExecutionException stopping) {
            end();
        }
    }

    void keepAliveIfQuiet(long now, long quietNanos) {
        if (now - lastWriteNanos >= quietNanos) {
            synchronized (this) {
                keepAliveDue = true;
            }
            wake();
        }
    }

    @Override
    public void onWritePossible() {
        pump();
    }

    /**
     * Writes what is ready while the socket takes it: frames left from last time, then what the
     * feed has, then a flush (so each batch reaches the client now, not when a buffer fills).
     */
    private synchronized void pump() {
        if (over.get() || out == null) {
            return;
        }
        try {
            while (out.isReady()) {
                byte[] frame = frames.poll();
                if (frame != null) {
                    out.write(frame);
                    unflushed = true;
                    continue;
                }
                if (!ended) {
                    ended = feed.fill(frames::add);
                    if (frames.isEmpty() && keepAliveDue && !ended) {
                        frames.add(feed.keepAlive());
                    }
                    keepAliveDue = false;
                    if (!frames.isEmpty()) {
                        continue;
                    }
                }
                if (unflushed) {
                    out.flush();
                    unflushed = false;
                    lastWriteNanos = System.nanoTime();
                    continue;
                }
                if (ended) {
                    end();
                }
                return;
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "A stream's client went away", e);
            end();
        }
    }

    /** The stream never started: lets go of the feed, and leaves the request to be answered as any other. */
    void abandon() {
        if (over.compareAndSet(false, true)) {
            streams.closed(this);
            closeFeed();
        }
    }

    private void closeFeed() {
        try {
            feed.close();
        } catch (RuntimeException stopping) { // what it follows may be gone already
            LOG.log(Level.FINE, "A stream's feed did not close cleanly", stopping);
        }
    }

    /** Ends the response and lets go of the feed, once; also while the application stops. */
    void end() {
        if (!over.compareAndSet(false, true)) {
            return;
        }
        streams.closed(this);
        closeFeed();
        try {
            context.complete();
        } catch (RuntimeException alreadyOver) {
            LOG.log(Level.FINEST, "The stream's request was already over", alreadyOver);
        }
    }

    @Override
    public void onError(Throwable t) {
        LOG.log(Level.FINE, "A stream's client went away", t);
        end();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        end();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        end();
    }

    @Override
    public void onError(AsyncEvent event) {
        end();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not started again
    }
}
