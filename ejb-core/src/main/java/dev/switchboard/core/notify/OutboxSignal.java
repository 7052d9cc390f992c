package dev.switchboard.core.notify;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/** Wakes the notification pump when a transaction that wrote to the outbox has committed. */
@ApplicationScoped
public class OutboxSignal {

    /** Capacity one: any number of commits between two pumps coalesce into one wake-up. */
    private final BlockingQueue<Boolean> raised = new ArrayBlockingQueue<>(1);

    public void raise() {
        raised.offer(Boolean.TRUE);
    }

    /** True when raised within the timeout. */
    boolean await(long timeoutMs) throws InterruptedException {
        return raised.poll(timeoutMs, TimeUnit.MILLISECONDS) != null;
    }
}
