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
}
