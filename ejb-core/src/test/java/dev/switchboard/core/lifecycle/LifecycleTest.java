package dev.switchboard.core.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.json.JsonObject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LifecycleTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:05Z");

    @Test
    void failedTurnsEndInterruptedWithStatusAndError() {
        JsonObject p = Lifecycle.turnInterrupted("turn_1", "main", AT.toEpochMilli() - 5000, AT, "failed", "boom", null);
        assertEquals("interrupted", p.getString("type"));
        assertEquals("interrupted", p.getString("state"));
        assertEquals("failed", p.getString("status"));
        assertEquals("boom", p.getJsonObject("error").getString("message"));
        assertEquals("2026-11-21T10:00:00Z", p.getString("started_at"));
    }

    @Test
    void interruptionsCarryNoErrorButMayNameTheMergingTurn() {
        JsonObject p = Lifecycle.turnInterrupted("turn_1", "main", 0, AT, "interrupted",
                "superseded by newer turn (collect policy)", "turn_2");
        assertFalse(p.containsKey("error"));
        assertEquals("turn_2", p.getString("merged_into"));
    }

    @Test
    void untargetedInterruptHasNoThread() {
        assertFalse(Lifecycle.turnInterrupted("turn_1", null, 0, AT, "interrupted", "Turn interrupted", null)
                .containsKey("thread_id"));
    }

    @Test
    void completedOmitsAnEmptyMessage() {
        assertFalse(Lifecycle.turnCompleted("turn_1", "main", 0, AT, "").containsKey("message"));
        assertEquals("done", Lifecycle.turnCompleted("turn_1", "main", 0, AT, "done").getString("message"));
    }

    @Test
    void progressTextsFollowHolonsPhases() {
        assertEquals("Queued: waiting to process interactive user request", Lifecycle.progressMessage("queued", 0));
        assertEquals("Understanding request and scanning relevant code: interactive user request",
                Lifecycle.progressMessage("running", 3_000));
        assertEquals("Inspecting files and planning code changes: interactive user request",
                Lifecycle.progressMessage("running", 25_000 - 10_000));
        assertEquals("Verifying results and preparing response: interactive user request",
                Lifecycle.progressMessage("running", 61_000));
        JsonObject p = Lifecycle.progress("turn_1", "main", "running", "m", "run-1", AT, AT.toEpochMilli() - 2500);
        assertEquals(2500, p.getInt("elapsed_ms"));
        assertEquals("run-1", p.getString("event_id"));
    }

    @Test
    void announcementsAreTurnlessItemsOnMain() {
        JsonObject item = Lifecycle.announceItem("announce_1", "evt_1", "github", "github.issue.opened",
                "event:acme/widgets", "pr-fix", null, "", "", AT);
        assertEquals("main", item.getString("thread_id"));
        assertFalse(item.containsKey("turn_id"));
        JsonObject content = item.getJsonObject("content");
        assertEquals("system_announce", content.getString("type"));
        assertEquals("event:acme/widgets", content.getString("source_session_key"));
        assertFalse(content.containsKey("action"), "an empty action is omitted");
        assertEquals("event processed", content.getString("text"));
        assertFalse(content.containsKey("decision_raw"), "a decision of the enum has no raw word");
    }

    @Test
    void anAnnouncedDecisionOutsideTheEnumKeepsItsRawWord() {
        JsonObject content = Lifecycle.announceItem("announce_2", "evt_2", "ci", "ci.check", "event:acme/widgets",
                "unknown", "deploy", "", "Decision: deploy", AT).getJsonObject("content");
        assertEquals("unknown", content.getString("decision"));
        assertEquals("deploy", content.getString("decision_raw"));
    }

    @Test
    void replyTextComesFromTheOutputsTextMember() {
        assertEquals("hi", Lifecycle.replyText("{\"type\":\"message\",\"text\":\"hi\"}"));
        assertNull(Lifecycle.replyText("{\"type\":\"message\"}"));
        assertNull(Lifecycle.replyText("not json"));
        assertNull(Lifecycle.replyText(null));
    }
}
