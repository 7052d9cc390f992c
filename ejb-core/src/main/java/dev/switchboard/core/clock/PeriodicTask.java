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

    /**
     * Runs {@code body} (guarded) every {@code everyMs}, the first time one period from now, on a
     * thread of {@code threads}; the caller shuts the returned scheduler down when it stops.
     */
    public static java.util.concurrent.ScheduledExecutorService every(java.util.concurrent.ThreadFactory threads,
            long everyMs, Logger log, String what, Runnable body) {
        java.util.concurrent.ScheduledExecutorService scheduler = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(threads);
        scheduler.scheduleWithFixedDelay(guarded(log, what, body), everyMs, everyMs,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        return scheduler;
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
