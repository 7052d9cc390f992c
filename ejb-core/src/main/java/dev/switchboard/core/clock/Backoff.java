package dev.switchboard.core.clock;

import java.time.Duration;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Retrying a start-up step that needs the database, with growing pauses, for a bounded time: an
 * instance that starts while its database blinks (a restart, a cut connection) waits for it
 * instead of failing to start for good.
 */
public final class Backoff {

    private static final long FIRST_PAUSE_MS = 200;
    private static final long MAX_PAUSE_MS = 5_000;

    private Backoff() {
    }

    /** {@code step}'s result, retried on any runtime failure until {@code patience} has passed (then the last failure). */
    public static <T> T retry(Logger log, String what, Duration patience, Supplier<T> step) {
        long giveUp = System.nanoTime() + patience.toNanos();
        long pause = FIRST_PAUSE_MS;
        while (true) {
            try {
                return step.get();
            } catch (RuntimeException e) {
                if (System.nanoTime() - giveUp >= 0) {
                    throw e;
                }
                long wait = pause;
                log.log(Level.WARNING, what + " failed; trying again in " + wait + " ms", e);
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                pause = Math.min(MAX_PAUSE_MS, pause * 2);
            }
        }
    }
}
