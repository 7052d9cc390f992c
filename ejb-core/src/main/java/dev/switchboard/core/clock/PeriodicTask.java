package dev.switchboard.core.clock;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Wraps the body of a periodic task so that nothing it throws — an {@code Error} included — ends
 * the schedule: {@code scheduleWithFixedDelay} silently stops running a task that throws once, and
 * a heartbeat that stops renewing lets every healthy run on the instance be taken over.
 */
public final class PeriodicTask {

    private PeriodicTask() {
    }

    /** {@code body}, logging and swallowing anything it throws; {@code what} names it in the log. */
    public static Runnable guarded(Logger log, String what, Runnable body) {
        return () -> {
            try {
                body.run();
            } catch (Throwable t) { // NOPMD: a periodic task must survive anything, see the class comment
                log.log(Level.SEVERE, what + " failed; it runs again at its next period", t);
            }
        };
    }
}
