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

    private final BooleanSupplier mayContinue;
    private final List<Runnable> callbacks = new ArrayList<>();
    private boolean cancelled;

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

    /** Cancels, running every registered callback once; false when it was already cancelled. */
    public boolean cancel() {
        List<Runnable> run;
        synchronized (this) {
            if (cancelled) {
                return false;
            }
            cancelled = true;
            run = List.copyOf(callbacks);
            callbacks.clear();
        }
        run.forEach(Runnable::run);
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
