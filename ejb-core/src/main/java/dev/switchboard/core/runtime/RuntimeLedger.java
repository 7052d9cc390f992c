package dev.switchboard.core.runtime;

import dev.switchboard.core.turn.TurnEvents;
import dev.switchboard.persistence.runtime.RuntimeRecord;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/** The runtime calls' transactions ({@code server/*}, {@code thread/start}). */
@Stateless
public class RuntimeLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    TurnEvents events;

    @Inject
    ServeSettings settings;

    /** A user's runtime state as {@code server/status} reports it. */
    public record Status(boolean paused, long eventsProcessed, Long lastEventAt, String sessionId, Long pausedAt,
            Long resumedAt) {
    }

    private ServeRuntime runtime() {
        return new ServeRuntime(em, events, settings.defaultSession());
    }

    public Status status(String userKey) {
        RuntimeRecord r = runtime().read(userKey);
        return new Status(r.isPaused(), r.getEventsProcessed(), r.getLastEventAt(), r.getSessionId(), r.getPausedAt(),
                r.getResumedAt());
    }

    public boolean pause(String userKey) {
        return runtime().pause(userKey);
    }

    public boolean resume(String userKey) {
        return runtime().resume(userKey);
    }

    public Instant startThread(String userKey, String threadKey) {
        return runtime().startThread(userKey, threadKey);
    }
}
