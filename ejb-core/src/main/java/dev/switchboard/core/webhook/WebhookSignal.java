package dev.switchboard.core.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Wakes this instance's dispatcher before its next poll: a message replayed, an endpoint enabled
 * again. (Raised before the caller's commit, the wake-up may find nothing yet; the next poll does.)
 */
@ApplicationScoped
public class WebhookSignal {

    /** Capacity one: raises between two rounds coalesce. */
    private final BlockingQueue<Boolean> raised = new ArrayBlockingQueue<>(1);

    public void raise() {
        raised.offer(Boolean.TRUE);
    }

    boolean await(long timeoutMs) throws InterruptedException {
        return raised.poll(timeoutMs, TimeUnit.MILLISECONDS) != null;
    }
}
