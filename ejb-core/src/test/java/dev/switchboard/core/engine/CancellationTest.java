package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CancellationTest {

    @Test
    void cancelRunsEachCallbackOnceAndLateCallbacksAtOnce() {
        Cancellation c = Cancellation.manual();
        AtomicInteger calls = new AtomicInteger();
        c.onCancel(calls::incrementAndGet);
        assertFalse(c.isCancelled());
        assertTrue(c.cancel());
        assertFalse(c.cancel(), "only once");
        assertEquals(1, calls.get());
        c.onCancel(calls::incrementAndGet);
        assertEquals(2, calls.get(), "registered after the fact: run at once");
    }

    @Test
    void aConditionThatTurnsFalseCancelsWhenChecked() {
        AtomicBoolean mayContinue = new AtomicBoolean(true);
        Cancellation c = new Cancellation(mayContinue::get);
        AtomicInteger calls = new AtomicInteger();
        c.onCancel(calls::incrementAndGet);
        assertFalse(c.isCancelled());
        mayContinue.set(false);
        assertTrue(c.isCancelled(), "seen by the check itself");
        assertEquals(1, calls.get(), "and the callbacks run");
        mayContinue.set(true);
        assertTrue(c.isCancelled(), "cancelled for good");
    }

    @Test
    void aSecondCancellerReturnsOnlyOnceTheFirstOnesCallbacksHaveRun() throws Exception {
        Cancellation c = Cancellation.manual();
        java.util.concurrent.CountDownLatch inCallback = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AtomicBoolean told = new AtomicBoolean();
        c.onCancel(() -> {
            inCallback.countDown();
            try {
                release.await(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            told.set(true);
        });
        Thread first = new Thread(c::cancel);
        first.start();
        assertTrue(inCallback.await(10, java.util.concurrent.TimeUnit.SECONDS));
        AtomicBoolean secondReturned = new AtomicBoolean();
        Thread second = new Thread(() -> {
            c.cancel();
            secondReturned.set(told.get());
        });
        second.start();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (second.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // the second canceller is waiting for the callback held in the first
        }
        assertEquals(Thread.State.TIMED_WAITING, second.getState());
        release.countDown();
        second.join(10_000);
        first.join(10_000);
        assertTrue(secondReturned.get(), "the second cancel returned after the callback had run");
    }

    @Test
    void aCallbackThatCancelsAgainDoesNotWaitForItself() {
        Cancellation c = Cancellation.manual();
        AtomicInteger calls = new AtomicInteger();
        c.onCancel(() -> assertFalse(c.cancel()));
        c.onCancel(calls::incrementAndGet);
        assertTrue(c.cancel());
        assertEquals(1, calls.get());
    }
}
