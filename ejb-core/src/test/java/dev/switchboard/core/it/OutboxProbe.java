package dev.switchboard.core.it;

import dev.switchboard.core.notify.Outbox;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.Json;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** In-container test helper: writes to the outbox in a transaction whose commit the test controls. */
@Stateless
public class OutboxProbe {

    @Inject
    Outbox outbox;

    /**
     * On a container thread of its own: appends a marker notification, then keeps the transaction
     * open until {@code release} opens.
     */
    @Asynchronous
    public Future<Void> appendAndHold(String userKey, String marker, CountDownLatch appended, CountDownLatch release)
            throws InterruptedException {
        outbox.append(userKey, "sequencer-test", "test/marker", Json.createObjectBuilder().add("marker", marker).build());
        appended.countDown();
        if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never released the held transaction");
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Appends a marker notification and commits. */
    public void append(String userKey, String marker) {
        outbox.append(userKey, "sequencer-test", "test/marker", Json.createObjectBuilder().add("marker", marker).build());
    }
}
