package dev.switchboard.core.lifecycle;

import dev.switchboard.core.engine.RunStream;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One execution's {@link RunStream}, written as notifications with few transactions: text deltas
 * gather for up to an interval and go out as one {@code item/delta}; a step item goes out at once,
 * after the text before it. Each write is one transaction ({@link Writer}), taken in order under a
 * lock, so a run's notifications keep their order. {@link #close} — called before the run's result
 * is written — waits for a write in progress, writes the steps still waiting, and drops the text
 * still waiting: the reply's {@code item/created} carries all of it, and nothing of this run's
 * stream may follow it. A failed write is dropped (the stored result stays the authority). Plain
 * Java: the container supplies the writer and the thread.
 */
public final class RunProgress implements RunStream, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RunProgress.class.getName());

    /** Writes notes in one transaction. */
    @FunctionalInterface
    public interface Writer {
        void write(List<Note> notes);
    }

    /** A pending notification: the delta's text, or a step item. */
    public record Note(String delta, JsonObject item) {
    }

    private final long intervalMs;
    private final ScheduledExecutorService flusher;
    private final Writer writer;
    /** Fair: a close waiting for a write goes before a flush that came later. */
    private final ReentrantLock writing = new ReentrantLock(true);
    private final List<Note> pending = new ArrayList<>();
    private final StringBuilder text = new StringBuilder();
    private boolean scheduled;
    private boolean closed;

    public RunProgress(long intervalMs, ScheduledExecutorService flusher, Writer writer) {
        this.intervalMs = intervalMs;
        this.flusher = flusher;
        this.writer = writer;
    }

    /** Shows nothing (no subscribers to serve, or a test). */
    public static RunProgress silent() {
        return new RunProgress(0, null, notes -> { });
    }

    @Override
    public void textDelta(String delta) {
        synchronized (this) {
            if (closed || flusher == null || delta.isEmpty()) {
                return;
            }
            text.append(delta);
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        schedule(intervalMs);
    }

    @Override
    public void item(JsonObject item) {
        synchronized (this) {
            if (closed || flusher == null) {
                return;
            }
            takeText();
            pending.add(new Note(null, item));
            scheduled = true;
        }
        schedule(0);
    }

    /** Ends the stream: waits for a write in progress, writes waiting steps, drops waiting text. */
    @Override
    public void close() {
        writing.lock();
        try {
            List<Note> steps;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                text.setLength(0);
                steps = pending.stream().filter(n -> n.item() != null).toList();
                pending.clear();
            }
            write(steps);
        } finally {
            writing.unlock();
        }
    }

    private void flush() {
        writing.lock();
        try {
            List<Note> notes;
            synchronized (this) {
                scheduled = false;
                if (closed) {
                    return;
                }
                takeText();
                notes = List.copyOf(pending);
                pending.clear();
            }
            write(notes);
        } finally {
            writing.unlock();
        }
    }

    private void takeText() {
        if (text.length() > 0) {
            pending.add(new Note(text.toString(), null));
            text.setLength(0);
        }
    }

    private void write(List<Note> notes) {
        if (notes.isEmpty()) {
            return;
        }
        try {
            writer.write(notes);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Writing " + notes.size() + " progress notifications failed; they are dropped", e);
        }
    }

    private void schedule(long delayMs) {
        try {
            flusher.schedule(this::flush, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            synchronized (this) {
                scheduled = false;
            }
        }
    }
}
