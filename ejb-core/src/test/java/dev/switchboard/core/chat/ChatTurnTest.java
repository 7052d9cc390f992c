package dev.switchboard.core.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.run.RunView;
import dev.switchboard.core.turn.TurnItem;
import dev.switchboard.core.turn.TurnQueries;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatTurnTest {

    private static RunView run(String id, long seq, String status, String errorCode, String output, Long finished) {
        return new RunView(id, status, status, output, errorCode == null ? null : "because", errorCode, "t", seq, "rpc",
                "followUp", 1, 0, 1000 + seq, null, finished, "turn-" + id);
    }

    private static TurnItem input(String runId, String text) {
        return new TurnItem(runId + ":in", runId, "turn-" + runId, "user", "completed", Lifecycle.userMessage(text));
    }

    private static String reply(String text) {
        return "{\"text\":\"" + text + "\"}";
    }

    @Test
    void eachOwnRunIsATurnAndMergedOnesAreLeftOut() {
        TurnQueries.Conversation conversation = new TurnQueries.Conversation(List.of(
                run("a", 1, "succeeded", null, reply("one"), 2000L),
                run("b", 2, "failed", "superseded", null, 2100L),
                run("c", 3, "failed", "interrupted", null, 2200L),
                run("d", 4, "failed", "engine_error", null, 2300L),
                run("e", 5, "running", null, null, null)),
                List.of(input("a", "one"), input("b", "two"), input("c", "two"), input("c", "three"), input("d", "four"),
                        input("e", "five")));
        List<ChatTurn> turns = ChatTurn.of(conversation);
        assertEquals("one", turns.get(0).response());
        assertEquals(List.of("a", "c", "d", "e"), turns.stream().map(ChatTurn::runId).toList());
        assertEquals(List.of("Completed", "Interrupted", "Failed", "Processing"),
                turns.stream().map(ChatTurn::state).toList());
        assertEquals("two\nthree", turns.get(1).userInput(), "a turn's inputs joined by newlines");
        assertEquals("because", turns.get(1).error());
        assertEquals(null, turns.get(3).completedAt());
    }
}
