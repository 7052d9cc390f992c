package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A thread's turns and the model context they make (spec §3.3, §3.5; upstream session.rs, §14.2). */
class TurnLogTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");

    private static List<String> shape(List<JsonObject> items) {
        return items.stream().map(i -> i.getString("type") + (i.containsKey("role") ? ":" + i.getString("role") : "")).toList();
    }

    @Test
    void turnsEndCompletedFailedOrInterruptedAndCountFromOne() {
        TurnLog log = new TurnLog();
        assertEquals(1, log.turnNumber());
        log.complete("nothing to end", NOW);
        assertTrue(log.turns().isEmpty(), "ending a turn of an empty thread does nothing");
        log.startTurn("hi", NOW);
        assertEquals(2, log.turnNumber(), "a running turn counts");
        log.complete("hello", NOW);
        Turn done = log.turns().get(0);
        assertEquals(Turn.State.COMPLETED, done.state());
        assertEquals("hello", done.response().orElseThrow());
        log.startTurn("break", NOW);
        log.fail("boom", NOW);
        Turn failed = log.turns().get(1);
        assertEquals(Turn.State.FAILED, failed.state());
        assertEquals("boom", failed.error().orElseThrow());
        assertTrue(failed.response().isEmpty());
        assertEquals(NOW, failed.completedAt().orElseThrow());
        log.startTurn("wait", NOW);
        log.interrupt(NOW);
        assertEquals(Turn.State.INTERRUPTED, log.turns().get(2).state());
    }

    @Test
    void theContextIsUserCallsOutputsThenTheReplyAndARunningTurnGivesItsMessageOnly() {
        TurnLog log = new TurnLog();
        log.startTurn("weather?", NOW);
        Turn turn = log.last().orElseThrow();
        turn.recordToolCall("get_weather", Json.createObjectBuilder().add("city", "Oslo").build(), "c1");
        turn.recordToolCall("get_time", Json.createObjectBuilder().build(), "c2");
        turn.recordToolErrorFor("c2", "timeout");
        turn.recordToolResultFor("c1", Json.createValue("-3C"));
        log.complete("Cold.", NOW);
        log.startTurn("and tomorrow?", NOW);
        List<JsonObject> context = log.messages();
        assertEquals(List.of("message:user", "function_call", "function_call_output", "function_call",
                "function_call_output", "message:assistant", "message:user"), shape(context));
        assertEquals("-3C", context.get(2).getString("output"));
        assertEquals("timeout", context.get(4).getString("output"), "an error is passed through as the output");
        String id = context.get(1).getString("call_id");
        assertEquals(9, id.length());
        assertEquals(id, context.get(2).getString("call_id"));
        assertEquals(TurnLog.callId(0, 0), id, "ids derive from the positions only");
        assertEquals(false, TurnLog.callId(0, 1).equals(TurnLog.callId(1, 0)));
    }

    @Test
    void toolResultsLandByIdElseOnTheFirstWaitingCall() {
        TurnLog log = new TurnLog();
        Turn turn = log.startTurn("x", NOW);
        turn.recordToolCall("a", Json.createObjectBuilder().build(), "id-a");
        turn.recordToolCall("b", Json.createObjectBuilder().build(), "id-b");
        turn.recordToolResultFor("id-b", Json.createValue("B"));
        turn.recordToolResultFor("unknown", Json.createValue("A"));
        assertEquals("A", ((jakarta.json.JsonString) turn.toolCalls().get(0).result().orElseThrow()).getString());
        assertEquals("B", ((jakarta.json.JsonString) turn.toolCalls().get(1).result().orElseThrow()).getString());
        turn.recordToolErrorFor("unknown", "dropped: nothing waits");
        assertTrue(turn.toolCalls().stream().allMatch(c -> c.error().isEmpty()));
    }

    @Test
    void largeToolOutputsAreCutAndAMissingOneIsOk() {
        TurnLog log = new TurnLog();
        Turn turn = log.startTurn("x", NOW);
        turn.recordToolCall("big", Json.createObjectBuilder().build(), "c");
        turn.recordToolResultFor("c", Json.createValue("é".repeat(1000)));
        turn.recordToolCall("quiet", Json.createObjectBuilder().build(), "q");
        List<JsonObject> context = log.messages();
        String cut = context.get(2).getString("output");
        assertTrue(cut.endsWith("..."));
        assertTrue(cut.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 1003, "at most 1000 bytes and the dots");
        assertEquals("é".repeat(500) + "...", cut, "no character split");
        assertEquals("OK", context.get(4).getString("output"));
    }

    @Test
    void restoringFromAContextRebuildsTheTurns() {
        TurnLog original = new TurnLog();
        Turn t = original.startTurn("weather?", NOW);
        t.recordToolCall("get_weather", Json.createObjectBuilder().add("city", "Oslo").build(), "c1");
        t.recordToolErrorFor("c1", "Error: timeout");
        original.complete("Sorry.", NOW);
        original.startTurn("second", NOW);
        original.complete("ok", NOW);
        original.startTurn("unanswered", NOW);

        TurnLog restored = new TurnLog();
        restored.restore(original.messages(), NOW);
        assertEquals(3, restored.turns().size());
        Turn first = restored.turns().get(0);
        assertEquals("get_weather", first.toolCalls().get(0).name());
        assertEquals(Json.createValue("Error: timeout"), first.toolCalls().get(0).result().orElseThrow(),
                "restored outputs are results, never errors");
        assertEquals("Sorry.", first.response().orElseThrow());
        assertEquals(Turn.State.PROCESSING, restored.turns().get(2).state(), "a turn without a reply stays running");
        assertEquals(original.messages().size(), restored.messages().size());

        TurnLog odd = new TurnLog();
        odd.restore(List.of(TurnLog.message("assistant", "orphan"), TurnLog.message("user", "one"),
                TurnLog.message("user", "two"), TurnLog.message("assistant", "answer")), NOW);
        assertEquals(2, odd.turns().size(), "an assistant message before any user message is skipped");
        assertTrue(odd.turns().get(0).response().isEmpty());
        assertEquals("answer", odd.turns().get(1).response().orElseThrow());
    }

    @Test
    void truncatingKeepsTheNewestAndNumbersThemAgain() {
        TurnLog log = new TurnLog();
        for (int i = 0; i < 5; i++) {
            log.startTurn("msg-" + i, NOW);
            log.complete("r" + i, NOW);
        }
        assertEquals(2, log.truncate(3));
        assertEquals(List.of("msg-2", "msg-3", "msg-4"), log.turns().stream().map(Turn::userInput).toList());
        assertEquals(List.of(0, 1, 2), log.turns().stream().map(Turn::turnNumber).toList());
        assertEquals(0, log.truncate(10));
        assertEquals(3, log.turns().size());
    }
}
