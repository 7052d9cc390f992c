package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.conversation.SessionPruning.Candidate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Idle pruning and the session-count warning (spec §2.5, §2.1; upstream session_manager.rs, §14.1). */
class SessionPruningTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    @Test
    void sessionsIdleLongerThanTheTimeoutGoUnlessBusy() {
        Candidate old = new Candidate("old", NOW.minus(Duration.ofDays(10)), false);
        Candidate recent = new Candidate("recent", NOW.minus(Duration.ofDays(1)), false);
        Candidate oldButBusy = new Candidate("busy", NOW.minus(Duration.ofDays(10)), true);
        Candidate atCutoff = new Candidate("edge", NOW.minus(Duration.ofDays(7)), false);
        assertEquals(List.of(old), SessionPruning.stale(List.of(old, recent, oldButBusy, atCutoff), NOW,
                SessionPruning.DEFAULT_MAX_IDLE), "strictly before the cutoff, and never one in use");
        assertTrue(SessionPruning.stale(List.of(old, recent), NOW, Duration.ofDays(365)).isEmpty());
    }

    @Test
    void theCountIsWorthAWarningAtAThousandAndEveryHundredAbove() {
        assertTrue(SessionPruning.countWarning(999).isEmpty());
        assertEquals("High session count: 1000 active sessions. Pruning runs every 10 minutes; consider reducing"
                + " session_idle_timeout.", SessionPruning.countWarning(1000).orElseThrow());
        assertTrue(SessionPruning.countWarning(1050).isEmpty());
        assertTrue(SessionPruning.countWarning(1100).isPresent());
        assertTrue(SessionPruning.countWarning(500).isEmpty());
    }
}
