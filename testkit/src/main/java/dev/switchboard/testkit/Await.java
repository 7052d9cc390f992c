package dev.switchboard.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for a condition with a deadline, instead of pausing for a guessed time. */
public final class Await {

    /**
     * The least time a condition is given. A deadline only ends a test that would otherwise hang: a
     * shorter one lets a loaded two-core machine (three test classes and their servers at once)
     * decide the verdict, which is the machine's speed, not the behaviour under test.
     */
    static final Duration AT_LEAST = Duration.ofSeconds(60);

    private Await() {
    }

    /** {@code timeout}, or {@link #AT_LEAST} when that is longer: the bound of any wait for a condition. */
    public static Duration bound(Duration timeout) {
        return timeout.compareTo(AT_LEAST) < 0 ? AT_LEAST : timeout;
    }

    /**
     * Polls {@code condition} every 10 ms; fails with {@code what} when it is not true within
     * {@code timeout} (or {@link #AT_LEAST}, whichever is longer).
     */
    public static void until(Duration timeout, BooleanSupplier condition, String what) throws InterruptedException {
        Duration bound = bound(timeout);
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + bound.toMillis() + " ms: " + what);
            }
            Thread.sleep(10);
        }
    }
}
