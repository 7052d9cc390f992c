package dev.switchboard.core.runtime;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * The runtime calls' transactions ({@code server/*}, {@code thread/start}): the user's runtime row
 * is {@link ServeRuntime}'s, the events it reports are counted by their own store.
 */
@Stateless
public class RuntimeLedger {

    @Inject
    ServeRuntime runtime;

    @Inject
    ProcessedEvents processed;

    public RuntimeStatus status(String userKey) {
        return runtime.status(userKey, processed.of(userKey));
    }

    public boolean pause(String userKey) {
        return runtime.pause(userKey);
    }

    public boolean resume(String userKey) {
        return runtime.resume(userKey);
    }

    public Instant startThread(String userKey, String threadKey) {
        return runtime.startThread(userKey, threadKey);
    }
}
