package dev.switchboard.core.runtime;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.runtime.RuntimeRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/**
 * A user's runtime row inside the caller's transaction: created on first use, locked for every
 * change, and every change that Holon announces (pause, resume, session start) is journalled with
 * it. Shared by the runtime's own calls and by turn starts, which resume a paused runtime (H10).
 */
@Store("serve_runtime")
@ApplicationScoped
public class ServeRuntime {

    /**
     * Raised, synchronously and inside the resuming transaction, when a user's runtime resumes:
     * work held during the pause (deferred ingress events) is released in the same commit.
     */
    public record Resumed(String userKey) {
    }

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    TurnEvents events;

    @Inject
    ServeSettings settings;

    @Inject
    Event<Resumed> resumed;

    @Inject
    InstanceClock clock;

    /** The row without a lock, or a fresh (unsaved) default when the user has none yet. */
    public RuntimeRecord read(String userKey) {
        RuntimeRecord found = em.find(RuntimeRecord.class, userKey);
        return found != null ? found : new RuntimeRecord(userKey, settings.defaultSession());
    }

    /** Whether the user's runtime is paused (read without a lock). */
    public boolean isPaused(String userKey) {
        return read(userKey).isPaused();
    }

    /** The user's runtime as {@code server/status} reports it, with the events it has processed. */
    public RuntimeStatus status(String userKey, ProcessedEvents.Count processed) {
        RuntimeRecord r = read(userKey);
        return new RuntimeStatus(r.isPaused(), processed.events(), processed.lastAt(), r.getSessionId(), r.getPausedAt(),
                r.getResumedAt());
    }

    /** The row, locked for update; created when missing. */
    public RuntimeRecord locked(String userKey) {
        RuntimeRecord found = em.find(RuntimeRecord.class, userKey, LockModeType.PESSIMISTIC_WRITE);
        if (found != null) {
            return found;
        }
        RuntimeRecord created = new RuntimeRecord(userKey, settings.defaultSession());
        em.persist(created);
        em.flush(); // a concurrent first use fails here with a unique violation; the caller retries
        return created;
    }

    /** False when already paused. */
    public boolean pause(String userKey) {
        RuntimeRecord rt = locked(userKey);
        Instant now = clock.now();
        if (!rt.pause(now.toEpochMilli())) {
            return false;
        }
        if (!rt.getSessionId().isEmpty()) {
            events.threadState(userKey, rt.getSessionId(), "paused", "paused", now);
        }
        return true;
    }

    /** False when not paused. */
    public boolean resume(String userKey) {
        return resume(locked(userKey));
    }

    private boolean resume(RuntimeRecord rt) {
        Instant now = clock.now();
        if (!rt.resume(now.toEpochMilli())) {
            return false;
        }
        if (!rt.getSessionId().isEmpty()) {
            events.threadState(rt.getUserKey(), rt.getSessionId(), "resumed", "running", now);
        }
        resumed.fire(new Resumed(rt.getUserKey()));
        return true;
    }

    /** {@code thread/start}: resume if paused, make the thread the session, announce it. */
    public Instant startThread(String userKey, String threadKey) {
        RuntimeRecord rt = locked(userKey);
        resume(rt);
        rt.useSession(threadKey);
        Instant now = clock.now();
        events.threadState(userKey, threadKey, "started", "running", now);
        return now;
    }

    /** What a turn start needs of the user's runtime. */
    public enum TurnStart {
        /** Nothing: it runs, and the turn's thread is its session. */
        NOTHING,
        /** It runs with another session: the turn's thread becomes it after the turn ({@link #moveSession}). */
        MOVE_SESSION,
        /** It was paused (or new): resumed, with the thread as its session, in the turn's transaction. */
        RESUMED
    }

    /**
     * A turn starts on {@code threadKey}. A paused runtime (or a user's first) is locked, resumed and
     * given the thread as its session here, in the turn's transaction (H10: a turn resumes it, and
     * what it held is released in the same commit); a running one is only read — its session moves
     * after the turn's commit, so turns on different threads never queue on this row.
     */
    public TurnStart turnStarting(String userKey, String threadKey) {
        RuntimeRecord current = read(userKey);
        if (em.contains(current) && !current.isPaused()) {
            return current.getSessionId().equals(threadKey) ? TurnStart.NOTHING : TurnStart.MOVE_SESSION;
        }
        RuntimeRecord rt = locked(userKey);
        resume(rt);
        rt.useSession(threadKey);
        return TurnStart.RESUMED;
    }

    /**
     * The running runtime's session becomes {@code threadKey}; a no-op when it is already, when the
     * runtime is paused, and when another transaction holds the row (skipped, not waited for: that
     * transaction's change of the session or the runtime stands).
     */
    public void moveSession(String userKey, String threadKey) {
        em.createNativeQuery("UPDATE serve_runtime SET session_id = ? WHERE user_key IN (SELECT user_key FROM"
                + " serve_runtime WHERE user_key = ? AND paused = FALSE AND session_id <> ? FOR UPDATE SKIP LOCKED)")
                .setParameter(1, threadKey).setParameter(2, userKey).setParameter(3, threadKey).executeUpdate();
    }
}
