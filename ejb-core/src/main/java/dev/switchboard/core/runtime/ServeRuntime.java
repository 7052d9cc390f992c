package dev.switchboard.core.runtime;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

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

    private static final String COLUMNS = "user_key, paused, session_id, paused_at, resumed_at";
    private static final String READ = "SELECT " + COLUMNS + " FROM serve_runtime WHERE user_key = ?";
    private static final String LOCK = READ + " FOR UPDATE";
    private static final String CREATE = "INSERT INTO serve_runtime (" + COLUMNS + ") VALUES (?, FALSE, ?, NULL, NULL)";
    private static final String WRITE = "UPDATE serve_runtime SET paused = ?, session_id = ?, paused_at = ?, resumed_at = ?"
            + " WHERE user_key = ?";
    private static final String MOVE_SESSION = "UPDATE serve_runtime SET session_id = ? WHERE user_key IN (SELECT user_key"
            + " FROM serve_runtime WHERE user_key = ? AND paused = FALSE AND session_id <> ? FOR UPDATE SKIP LOCKED)";

    /** A user's runtime row: paused or not, its session (a thread key, "" for none) and when it last paused and resumed. */
    public record RuntimeRow(String userKey, boolean paused, String sessionId, Long pausedAt, Long resumedAt) {

        RuntimeRow pausedAt(long now) {
            return new RuntimeRow(userKey, true, sessionId, now, resumedAt);
        }

        RuntimeRow resumedAt(long now) {
            return new RuntimeRow(userKey, false, sessionId, pausedAt, now);
        }

        RuntimeRow withSession(String threadKey) {
            return new RuntimeRow(userKey, paused, threadKey, pausedAt, resumedAt);
        }
    }

    @Inject
    Statements statements;

    @Inject
    TurnEvents events;

    @Inject
    ServeSettings settings;

    @Inject
    Event<Resumed> resumed;

    @Inject
    InstanceClock clock;

    /** The row without a lock, or a fresh (unsaved) default when the user has none yet. */
    public RuntimeRow read(String userKey) {
        return stored(userKey).orElseGet(() -> fresh(userKey));
    }

    /** Whether the user's runtime is paused (read without a lock). */
    public boolean isPaused(String userKey) {
        return read(userKey).paused();
    }

    /** The user's runtime as {@code server/status} reports it, with the events it has processed. */
    public RuntimeStatus status(String userKey, ProcessedEvents.Count processed) {
        RuntimeRow r = read(userKey);
        return new RuntimeStatus(r.paused(), processed.events(), processed.lastAt(), r.sessionId(), r.pausedAt(),
                r.resumedAt());
    }

    /** The row, locked for update; created when missing. */
    public RuntimeRow locked(String userKey) {
        List<RuntimeRow> found = statements.query(LOCK, s -> s.setString(1, userKey), ServeRuntime::row,
                "locking the runtime of " + userKey);
        if (!found.isEmpty()) {
            return found.get(0);
        }
        RuntimeRow created = fresh(userKey);
        // a concurrent first use fails here (UniqueViolation.Lost); the caller retries
        UniqueViolation.raisingLost(() -> {
            statements.updateOne(CREATE, s -> {
                s.setString(1, userKey);
                s.setString(2, created.sessionId());
            }, "creating the runtime of " + userKey);
        });
        return created;
    }

    /** False when already paused. */
    public boolean pause(String userKey) {
        RuntimeRow rt = locked(userKey);
        if (rt.paused()) {
            return false;
        }
        Instant now = clock.now();
        write(rt.pausedAt(now.toEpochMilli()));
        if (!rt.sessionId().isEmpty()) {
            events.threadState(userKey, rt.sessionId(), "paused", "paused", now);
        }
        return true;
    }

    /** False when not paused. */
    public boolean resume(String userKey) {
        RuntimeRow rt = locked(userKey);
        if (!rt.paused()) {
            return false;
        }
        resumed(rt, rt.sessionId());
        return true;
    }

    /**
     * Writes the paused {@code rt} resumed, its session {@code sessionId}, then announces it: the
     * listeners of {@link Resumed} read the row as written.
     */
    private void resumed(RuntimeRow rt, String sessionId) {
        Instant now = clock.now();
        write(rt.resumedAt(now.toEpochMilli()).withSession(sessionId));
        if (!rt.sessionId().isEmpty()) {
            events.threadState(rt.userKey(), rt.sessionId(), "resumed", "running", now);
        }
        resumed.fire(new Resumed(rt.userKey()));
    }

    /** {@code thread/start}: resume if paused, make the thread the session, announce it. */
    public Instant startThread(String userKey, String threadKey) {
        useSession(locked(userKey), threadKey);
        Instant now = clock.now();
        events.threadState(userKey, threadKey, "started", "running", now);
        return now;
    }

    /** Resumes the locked {@code rt} if it is paused and makes {@code threadKey} its session, in one write. */
    private void useSession(RuntimeRow rt, String threadKey) {
        if (rt.paused()) {
            resumed(rt, threadKey);
        } else if (!rt.sessionId().equals(threadKey)) {
            write(rt.withSession(threadKey));
        }
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
        Optional<RuntimeRow> current = stored(userKey);
        if (current.isPresent() && !current.get().paused()) {
            return current.get().sessionId().equals(threadKey) ? TurnStart.NOTHING : TurnStart.MOVE_SESSION;
        }
        useSession(locked(userKey), threadKey);
        return TurnStart.RESUMED;
    }

    /**
     * The running runtime's session becomes {@code threadKey}; a no-op when it is already, when the
     * runtime is paused, and when another transaction holds the row (skipped, not waited for: that
     * transaction's change of the session or the runtime stands).
     */
    public void moveSession(String userKey, String threadKey) {
        statements.update(MOVE_SESSION, s -> {
            s.setString(1, threadKey);
            s.setString(2, userKey);
            s.setString(3, threadKey);
        }, "moving the session of " + userKey);
    }

    private Optional<RuntimeRow> stored(String userKey) {
        return statements.query(READ, s -> s.setString(1, userKey), ServeRuntime::row, "reading the runtime of " + userKey)
                .stream().findFirst();
    }

    private RuntimeRow fresh(String userKey) {
        return new RuntimeRow(userKey, false, settings.defaultSession(), null, null);
    }

    private void write(RuntimeRow rt) {
        statements.updateOne(WRITE, s -> {
            s.setBoolean(1, rt.paused());
            s.setString(2, rt.sessionId());
            Statements.setLong(s, 3, rt.pausedAt());
            Statements.setLong(s, 4, rt.resumedAt());
            s.setString(5, rt.userKey());
        }, "writing the runtime of " + rt.userKey());
    }

    private static RuntimeRow row(ResultSet rs) throws SQLException {
        return new RuntimeRow(rs.getString(1), rs.getBoolean(2), rs.getString(3), Statements.getLong(rs, 4),
                Statements.getLong(rs, 5));
    }
}
