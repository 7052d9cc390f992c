package dev.switchboard.core.notify;

import dev.switchboard.core.sql.LocalTransactions;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A writer's transaction held at its exact step — after its outbox insert, before its commit — on
 * a thread of its own, until the test lets it commit: a late commit, provoked rather than slept for.
 */
final class HeldOutboxWrite implements AutoCloseable {

    private static final long WAIT_S = 30;

    private final ExecutorService writer = Executors.newSingleThreadExecutor();
    private final CountDownLatch inserted = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final Future<?> done;

    /** Returns once the row is inserted and the transaction held open. */
    HeldOutboxWrite(LocalTransactions tx, Outbox outbox, OutboxRow row) {
        done = writer.submit(() -> tx.run(() -> {
            outbox.write(List.of(row));
            inserted.countDown();
            await(release, "the test never let the held writer commit");
        }));
        await(inserted, "the held writer did not reach its insert");
    }

    /** Lets the transaction commit and returns once it has. */
    void commit() {
        release.countDown();
        try {
            done.get(WAIT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the held writer did not commit", e);
        } finally {
            writer.shutdown();
        }
    }

    /** Lets it go (committing) if the test ended before it did. */
    @Override
    public void close() {
        release.countDown();
        writer.shutdown();
    }

    private static void await(CountDownLatch latch, String failure) {
        try {
            if (!latch.await(WAIT_S, TimeUnit.SECONDS)) {
                throw new AssertionError(failure + " within " + WAIT_S + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
