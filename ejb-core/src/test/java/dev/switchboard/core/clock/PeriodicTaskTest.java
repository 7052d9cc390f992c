package dev.switchboard.core.clock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class PeriodicTaskTest {

    private static final Logger QUIET = Logger.getLogger("periodic-task-test");

    static {
        QUIET.setUseParentHandlers(false);
        QUIET.setLevel(Level.OFF);
    }

    @Test
    void aTaskThatThrowsAnErrorKeepsRunning() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch threeRuns = new CountDownLatch(3);
            timer.scheduleWithFixedDelay(PeriodicTask.guarded(QUIET, "test task", () -> {
                runs.incrementAndGet();
                threeRuns.countDown();
                throw new StackOverflowError("once per run");
            }), 0, 5, TimeUnit.MILLISECONDS);
            assertTrue(threeRuns.await(5, TimeUnit.SECONDS), "ran " + runs.get() + " times: the schedule died");
        } finally {
            timer.shutdownNow();
        }
    }

    @Test
    void withoutTheGuardTheScheduleDiesAtTheFirstError() throws Exception {
        // Why the guard exists: the JDK suppresses every later run of a task that threw once.
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            AtomicInteger runs = new AtomicInteger();
            timer.scheduleWithFixedDelay(() -> {
                runs.incrementAndGet();
                throw new StackOverflowError("once");
            }, 0, 5, TimeUnit.MILLISECONDS);
            CountDownLatch never = new CountDownLatch(1);
            never.await(100, TimeUnit.MILLISECONDS);
            assertTrue(runs.get() == 1, "ran " + runs.get() + " times");
        } finally {
            timer.shutdownNow();
        }
    }
}
