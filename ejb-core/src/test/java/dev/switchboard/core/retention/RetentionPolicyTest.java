package dev.switchboard.core.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.persistence.run.RunKind;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetentionPolicyTest {

    private static final long NOW = 10_000_000_000L;
    private static final long DAY = Duration.ofDays(1).toMillis();

    @Test
    void everyKindOfRunAgesByTheDefaultUnlessItHasItsOwnAge() {
        RetentionPolicy policy = RetentionPolicy.of(Duration.ofDays(30),
                Map.of(RunKind.EVENT, Duration.ofDays(365), RunKind.RESPONSE, Duration.ofDays(1)),
                Duration.ZERO, Duration.ZERO);
        assertEquals(Optional.of(NOW - 30 * DAY), policy.runsCutoff(RunKind.MESSAGE, NOW));
        assertEquals(Optional.of(NOW - 30 * DAY), policy.runsCutoff(RunKind.DELEGATED, NOW));
        assertEquals(Optional.of(NOW - 365 * DAY), policy.runsCutoff(RunKind.EVENT, NOW));
        assertEquals(Optional.of(NOW - DAY), policy.runsCutoff(RunKind.RESPONSE, NOW));
    }

    @Test
    void delegationsJournalAgesWithTheDelegatedRuns() {
        RetentionPolicy policy = RetentionPolicy.of(Duration.ofDays(30), Map.of(RunKind.DELEGATED, Duration.ofDays(90)),
                Duration.ZERO, Duration.ZERO);
        assertEquals(Optional.of(NOW - 90 * DAY), policy.delegationJournalCutoff(NOW));
        RetentionPolicy kept = RetentionPolicy.of(Duration.ofDays(30), Map.of(RunKind.DELEGATED, Duration.ZERO),
                Duration.ZERO, Duration.ZERO);
        assertEquals(Optional.empty(), kept.delegationJournalCutoff(NOW));
    }

    @Test
    void zeroKeepsForEverAndTheHistoryIsKeptByDefault() {
        RetentionPolicy policy = RetentionPolicy.of(Duration.ZERO, Map.of(RunKind.CHAT, Duration.ofDays(7)),
                Duration.ZERO, Duration.ZERO);
        assertEquals(Optional.empty(), policy.runsCutoff(RunKind.MESSAGE, NOW));
        assertEquals(Optional.of(NOW - 7 * DAY), policy.runsCutoff(RunKind.CHAT, NOW));
        assertEquals(Optional.empty(), policy.itemsCutoff(NOW));
        assertEquals(Optional.empty(), policy.idleWorkspacesCutoff(NOW));
        assertTrue(policy.prunesAnything());
        assertTrue(policy.describe().contains("message=kept") && policy.describe().contains("chat=7d"),
                policy.describe());
    }

    @Test
    void nothingToPruneWhenEverythingIsKept() {
        assertFalse(RetentionPolicy.of(Duration.ZERO, Map.of(), Duration.ZERO, Duration.ZERO).prunesAnything());
        assertTrue(RetentionPolicy.of(Duration.ZERO, Map.of(), Duration.ofDays(90), Duration.ZERO).prunesAnything());
        assertEquals(Optional.of(NOW - 90 * DAY),
                RetentionPolicy.of(Duration.ZERO, Map.of(), Duration.ZERO, Duration.ofDays(90)).idleWorkspacesCutoff(NOW));
    }

    @Test
    void aNegativeAgeIsRefusedRatherThanDeletingEverything() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.of(
                Duration.ofDays(30), Map.of(RunKind.EVENT, Duration.ofDays(-1)), Duration.ZERO, Duration.ZERO));
        assertTrue(e.getMessage().contains("event"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.of(Duration.ofDays(30), Map.of(),
                Duration.ofDays(-5), Duration.ZERO));
    }
}
