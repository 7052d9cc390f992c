package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Token estimates and the compaction trigger (spec §11.1; upstream context_monitor.rs, §14.4). */
class ContextMonitorTest {

    @Test
    void aMessageCostsItsWordsTimesOnePointThreePlusFour() {
        assertEquals(6, ContextMonitor.textTokens("one two three four five"));
        assertEquals(10, ContextMonitor.tokens(List.of("one two three four five")));
        assertEquals(4, ContextMonitor.tokens(List.of("   ")));
        assertEquals(0, ContextMonitor.tokens(List.of()));
    }

    @Test
    void compactionIsDueAtTheThreshold() {
        ContextMonitor small = new ContextMonitor(100, 0.8);
        assertFalse(small.needsCompaction(ContextMonitor.tokens(List.of("Hello"))));
        assertTrue(small.needsCompaction(ContextMonitor.tokens(List.of("word ".repeat(1000)))));
        assertTrue(small.needsCompaction(80));
        assertFalse(small.needsCompaction(79));
        assertEquals(Optional.empty(), new ContextMonitor().suggest(ContextMonitor.tokens(List.of("small", "context"))));
    }

    @Test
    void theStrategyGrowsHarsherWithUsage() {
        ContextMonitor monitor = new ContextMonitor(1000, 0.8);
        assertEquals(Optional.of(new ContextMonitor.MoveToWorkspace()), monitor.suggest(800));
        assertEquals(Optional.of(new ContextMonitor.MoveToWorkspace()), monitor.suggest(850));
        assertEquals(Optional.of(new ContextMonitor.Summarize(5)), monitor.suggest(851));
        assertEquals(Optional.of(new ContextMonitor.Truncate(3)), monitor.suggest(951));
        assertEquals(85.0, monitor.usagePercent(850));
    }

    @Test
    void theThresholdIsClamped() {
        assertTrue(new ContextMonitor(100, 0.1).needsCompaction(50));
        assertFalse(new ContextMonitor(100, 0.1).needsCompaction(49));
        assertFalse(new ContextMonitor(100, 0.99).needsCompaction(94));
        assertTrue(new ContextMonitor(100, 0.99).needsCompaction(95));
    }
}
