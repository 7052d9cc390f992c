package dev.switchboard.core.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.lifecycle.Lifecycle;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatCompactionTest {

    private static final JsonObject CALL = Json.createObjectBuilder().add("type", "function_call").add("name", "t")
            .add("arguments", "{}").build();

    @Test
    void theSummaryIsAskedForTheTurnsUserInputAndRepliesOnly() {
        String prompt = ChatCompaction.prompt(List.of(List.of(Lifecycle.userMessage("hi"), CALL,
                Lifecycle.assistantMessage("hello")), List.of(Lifecycle.userMessage("bye"))));
        assertTrue(prompt.startsWith(ChatCompaction.INSTRUCTIONS + "\n\nPlease summarize this conversation:\n\n"), prompt);
        assertTrue(prompt.endsWith("User: hi\n\nAssistant: hello\n\nUser: bye"), prompt);
    }

    @Test
    void theSummaryGoesBeforeTheKeptTurnsAsAMessage() {
        JsonObject head = ChatCompaction.head("- decided X");
        assertEquals("message", head.getString("type"));
        assertEquals("[Summary of the earlier conversation]\n- decided X", ChatCompaction.text(head));
    }

    @Test
    void sizesAndAnswersFollowTheSpec() {
        assertEquals(2 * ((long) Math.floor(2 * 1.3) + 4), ChatCompaction.tokens(List.of(Lifecycle.userMessage("a b"),
                Lifecycle.assistantMessage("c d"))));
        assertEquals("Compacted: 3 turns removed, 900 → 300 tokens (was 90.5% full)",
                ChatCompaction.compacted(3, 900, 300, 90.46));
    }
}
