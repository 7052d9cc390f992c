package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Compaction strategies (spec §11.2; upstream compaction.rs, §14.5, with decision I10). */
class CompactionTest {

    private static final Instant NOW = Instant.parse("2026-11-26T09:05:00Z");

    private final List<String> modelCalls = new ArrayList<>();
    private final Compaction.Summarizer model = (instructions, transcript) -> {
        modelCalls.add(transcript);
        return "- they talked";
    };
    private final Map<String, String> files = new LinkedHashMap<>();
    private final Compaction.Workspace workspace = (path, text) -> files.merge(path, text, String::concat);
    private final Compaction.Workspace broken = (path, text) -> {
        throw new java.io.IOException("disk full");
    };

    private static TurnLog turns(int n) {
        TurnLog log = new TurnLog();
        for (int i = 0; i < n; i++) {
            log.startTurn("msg-" + i + " with a few more words", NOW);
            log.complete("reply " + i + " with some words as well", NOW);
        }
        return log;
    }

    private static List<String> inputs(TurnLog log) {
        return log.turns().stream().map(t -> t.userInput().split(" ")[0]).toList();
    }

    @Test
    void truncateKeepsTheNewestAndNeverFails() throws Exception {
        TurnLog log = turns(10);
        Compaction.Result r = Compaction.compact(log, new ContextMonitor.Truncate(3), Optional.empty(), model, NOW);
        assertEquals(7, r.turnsRemoved());
        assertEquals(List.of("msg-7", "msg-8", "msg-9"), inputs(log));
        assertTrue(r.tokensAfter() < r.tokensBefore());
        assertFalse(r.summaryWritten());
        assertEquals(0, Compaction.compact(turns(2), new ContextMonitor.Truncate(3), Optional.empty(), model, NOW)
                .turnsRemoved());
        Compaction.Result all = Compaction.compact(turns(4), new ContextMonitor.Truncate(0), Optional.empty(), model, NOW);
        assertEquals(4, all.turnsRemoved());
        assertEquals(0, all.tokensAfter());
        Compaction.Result empty = Compaction.compact(new TurnLog(), new ContextMonitor.Truncate(3), Optional.empty(), model,
                NOW);
        assertEquals(0, empty.tokensBefore());
        assertTrue(modelCalls.isEmpty());
    }

    @Test
    void summarizingAsksTheModelAboutTheOlderTurnsKeepsTheRestAndOpensTheContextWithTheSummary() throws Exception {
        TurnLog log = turns(5);
        Compaction.Result r = Compaction.compact(log, new ContextMonitor.Summarize(2), Optional.empty(), model, NOW);
        assertEquals(3, r.turnsRemoved());
        assertEquals(Optional.of("- they talked"), r.summary());
        assertFalse(r.summaryWritten(), "no workspace: returned, not stored");
        assertEquals(1, modelCalls.size());
        assertTrue(modelCalls.get(0).startsWith("Please summarize this conversation:\n\nUser: msg-0"));
        assertTrue(modelCalls.get(0).contains("\n\nAssistant: reply 2"));
        assertFalse(modelCalls.get(0).contains("msg-3"), "only the turns that go");
        assertEquals(List.of("msg-3", "msg-4"), inputs(log));
        assertTrue(log.messages().get(0).toString().contains("- they talked"), "I10: the summary opens the context");
        assertEquals(5, log.messages().size(), "the summary, then two turns of two messages");
    }

    @Test
    void summarizingWritesTheDailyFileAndKeepsEveryTurnWhenItCannot() throws Exception {
        TurnLog log = turns(8);
        Compaction.Result r = Compaction.compact(log, new ContextMonitor.Summarize(5), Optional.of(workspace), model, NOW);
        assertTrue(r.summaryWritten());
        assertEquals("\n## Context Summary (09:05 UTC)\n\n- they talked\n", files.get("daily/2026-11-26.md"));
        assertEquals(3, r.turnsRemoved());

        TurnLog kept = turns(8);
        Compaction.Result failed = Compaction.compact(kept, new ContextMonitor.Summarize(5), Optional.of(broken), model, NOW);
        assertEquals(0, failed.turnsRemoved());
        assertEquals(8, kept.turns().size());
        assertTrue(kept.summary().isEmpty());
    }

    @Test
    void aFailedModelCallChangesNothingAndFewTurnsNeedNoCall() throws Exception {
        TurnLog log = turns(6);
        Compaction.Summarizer down = (i, t) -> {
            throw new IllegalStateException("model down");
        };
        Compaction.Failed failed = assertThrows(Compaction.Failed.class,
                () -> Compaction.compact(log, new ContextMonitor.Summarize(2), Optional.empty(), down, NOW));
        assertTrue(failed.getMessage().contains("model down"));
        assertEquals(6, log.turns().size());
        Compaction.Result none = Compaction.compact(turns(3), new ContextMonitor.Summarize(5), Optional.empty(), model, NOW);
        assertEquals(0, none.turnsRemoved());
        assertTrue(modelCalls.isEmpty());
        Compaction.Result zero = Compaction.compact(turns(3), new ContextMonitor.Summarize(0), Optional.empty(), model, NOW);
        assertEquals(3, zero.turnsRemoved());
        assertTrue(zero.summary().isPresent());
    }

    @Test
    void movingToTheWorkspaceArchivesTheOlderTurnsAndKeepsTen() throws Exception {
        TurnLog log = turns(20);
        log.turns().get(0).recordToolCall("search", Json.createObjectBuilder().build(), "s");
        Compaction.Result r = Compaction.compact(log, new ContextMonitor.MoveToWorkspace(), Optional.of(workspace), model, NOW);
        assertEquals(10, r.turnsRemoved());
        assertEquals("msg-10", inputs(log).get(0));
        String archived = files.get("daily/2026-11-26.md");
        assertTrue(archived.startsWith("\n## Archived Context (09:05 UTC)\n\n**Turn 1**\nUser: msg-0"), archived);
        assertTrue(archived.contains("\nAgent: reply 0 with some words as well\nTools: search\n\n**Turn 2**"), archived);
        assertTrue(modelCalls.isEmpty());

        TurnLog noWorkspace = turns(20);
        assertEquals(15, Compaction.compact(noWorkspace, new ContextMonitor.MoveToWorkspace(), Optional.empty(), model, NOW)
                .turnsRemoved());
        assertEquals("msg-15", inputs(noWorkspace).get(0));
        TurnLog few = turns(4);
        assertEquals(0, Compaction.compact(few, new ContextMonitor.MoveToWorkspace(), Optional.of(workspace), model, NOW)
                .turnsRemoved());
        TurnLog kept = turns(20);
        assertEquals(0, Compaction.compact(kept, new ContextMonitor.MoveToWorkspace(), Optional.of(broken), model, NOW)
                .turnsRemoved());
        assertEquals(20, kept.turns().size());
    }

    @Test
    void sequentialCompactionsAndAFormatWithoutAReply() throws Exception {
        TurnLog log = turns(20);
        Compaction.compact(log, new ContextMonitor.Truncate(10), Optional.empty(), model, NOW);
        Compaction.compact(log, new ContextMonitor.Truncate(3), Optional.empty(), model, NOW);
        assertEquals(List.of("msg-17", "msg-18", "msg-19"), inputs(log));
        TurnLog running = new TurnLog();
        running.startTurn("unfinished", NOW);
        assertEquals("**Turn 1**\nUser: unfinished", Compaction.format(running.turns()));
        assertEquals("", Compaction.format(List.of()));
    }
}
