package dev.switchboard.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for a condition with a deadline, instead of pausing for a guessed time. */
public final class Await {

    private Await() {
    }

    /** Polls {@code condition} every 10 ms; fails with {@code what} when it is not true within {@code timeout}. */
    public static void until(Duration timeout, BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            Thread.sleep(10);
        }
    }
}
