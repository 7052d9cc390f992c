package dev.switchboard.core.clock;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Wakes a loop that otherwise sleeps until its next poll (the notification pump, the webhook
 * dispatcher). Capacity one: any number of raises between two rounds coalesce into one wake-up.
 * Each loop has its own subclass, the bean its producers and its loop share.
 */
public class WakeUp {

    private final BlockingQueue<Boolean> raised = new ArrayBlockingQueue<>(1);

    public void raise() {
        raised.offer(Boolean.TRUE);
    }

    /**
     * Raises it once the caller's transaction has committed, so that the loop finds what it
     * wrote (nothing when it rolls back); at once when there is no transaction.
     */
    public void raiseOnCommit(TransactionSynchronizationRegistry transactions) {
        if (transactions.getTransactionKey() == null) {
            raise();
            return;
        }
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // nothing to do before: the wake-up is for after the commit
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    raise();
                }
            }
        });
    }

    /** True when raised within the timeout; the loop then runs a round at once. */
    public boolean await(long timeoutMs) throws InterruptedException {
        return raised.poll(timeoutMs, TimeUnit.MILLISECONDS) != null;
    }
}
