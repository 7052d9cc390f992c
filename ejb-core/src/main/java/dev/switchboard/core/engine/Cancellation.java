package dev.switchboard.core.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Tells an engine call to stop. It is cancelled when told so ({@link #cancel}) and also the moment
 * {@code mayContinue} turns false — the lane's "may I still execute?" (the lease's local deadline),
 * which an engine sees exactly when it checks, not only when some timer notices. Engines check
 * {@link #isCancelled} before each step that does work, and may register {@link #onCancel} to be
 * interrupted at once.
 */
public final class Cancellation {

    /** The longest a second canceller waits for the first one's callbacks. */
    private static final long WAIT_FOR_CALLBACKS_MS = 5_000;

    private final BooleanSupplier mayContinue;
    private final List<Runnable> callbacks = new ArrayList<>();
    private boolean cancelled;
    private boolean callbacksRun;
    private Thread cancelling;

    public Cancellation(BooleanSupplier mayContinue) {
        this.mayContinue = mayContinue;
    }

    /** Never cancelled by a condition; only by {@link #cancel}. */
    public static Cancellation manual() {
        return new Cancellation(() -> true);
    }

    public boolean isCancelled() {
        synchronized (this) {
            if (cancelled) {
                return true;
            }
        }
        if (mayContinue.getAsBoolean()) {
            return false;
        }
        cancel();
        return true;
    }

    /**
     * Cancels, running every registered callback once; false when it was already cancelled. Either
     * way it returns only once the callbacks have run — a second canceller waits for the first one's
     * (unless it is that one, cancelling again from a callback) — so whoever stops an engine may
     * rely on the engine having been told.
     */
    public boolean cancel() {
        List<Runnable> run;
        synchronized (this) {
            if (cancelled) {
                long deadline = System.nanoTime() + WAIT_FOR_CALLBACKS_MS * 1_000_000;
                while (!callbacksRun && cancelling != Thread.currentThread()) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        break;
                    }
                    try {
                        wait(left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                return false;
            }
            cancelled = true;
            cancelling = Thread.currentThread();
            run = List.copyOf(callbacks);
            callbacks.clear();
        }
        try {
            run.forEach(Runnable::run);
        } finally {
            synchronized (this) {
                callbacksRun = true;
                cancelling = null;
                notifyAll();
            }
        }
        return true;
    }

    /** Runs {@code callback} when cancelled — at once if it already is. */
    public void onCancel(Runnable callback) {
        synchronized (this) {
            if (!cancelled) {
                callbacks.add(callback);
                return;
            }
        }
        callback.run();
    }
}
