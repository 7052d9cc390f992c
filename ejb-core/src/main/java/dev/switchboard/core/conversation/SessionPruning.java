package dev.switchboard.core.conversation;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which sessions the idle timer removes (spec §2.5): those last active strictly before
 * {@code now − maxIdle} (whole seconds), skipping any in use; and when the number of sessions is
 * worth a warning (at 1,000 and every 100 above).
 */
public final class SessionPruning {

    public static final Duration DEFAULT_MAX_IDLE = Duration.ofDays(7);
    public static final int WARNING_THRESHOLD = 1000;

    /** A session as the timer sees it. */
    public record Candidate(String userId, Instant lastActiveAt, boolean busy) {
    }

    private SessionPruning() {
    }

    public static List<Candidate> stale(List<Candidate> sessions, Instant now, Duration maxIdle) {
        Instant cutoff = now.minusSeconds(maxIdle.toSeconds());
        return sessions.stream().filter(s -> !s.busy() && s.lastActiveAt().isBefore(cutoff)).toList();
    }

    /** The warning to log after a session was created and there are {@code count}; empty when none is due. */
    public static Optional<String> countWarning(int count) {
        if (count < WARNING_THRESHOLD || count % 100 != 0) {
            return Optional.empty();
        }
        return Optional.of("High session count: " + count + " active sessions. Pruning runs every 10 minutes;"
                + " consider reducing session_idle_timeout.");
    }
}
