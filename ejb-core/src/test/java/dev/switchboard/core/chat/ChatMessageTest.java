package dev.switchboard.core.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChatMessageTest {

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static String invalidField(String body) {
        return assertThrows(ChatMessage.InvalidException.class, () -> ChatMessage.of(json(body))).field();
    }

    @Test
    void theChannelDefaultsToWebAndAnAbsentThreadIdIsNotAnEmptyOne() {
        assertEquals(new ChatMessage("hi", "web", Optional.empty()), ChatMessage.of(json("{\"content\":\"hi\"}")));
        assertEquals(new ChatMessage("hi", "web", Optional.empty()),
                ChatMessage.of(json("{\"content\":\"hi\",\"thread_id\":null,\"channel\":null}")));
        assertEquals(new ChatMessage("hi", "telegram", Optional.of("")),
                ChatMessage.of(json("{\"content\":\"hi\",\"channel\":\"telegram\",\"thread_id\":\"\"}")));
    }

    @Test
    void contentIsRequiredNotBlankAndBounded() {
        assertEquals("content", invalidField("{}"));
        assertEquals("content", invalidField("{\"content\":\" \\n\"}"));
        assertEquals("content", invalidField("{\"content\":7}"));
        assertEquals("content", invalidField("{\"content\":\"" + "x".repeat(ChatMessage.MAX_CONTENT + 1) + "\"}"));
        assertEquals(ChatMessage.MAX_CONTENT,
                ChatMessage.of(json("{\"content\":\"" + "x".repeat(ChatMessage.MAX_CONTENT) + "\"}")).content().length());
    }

    @Test
    void channelsAreShortLowerCaseNames() {
        for (String ok : new String[] {"web", "cli", "a", "slack-eu.2", "x_y", "9" + "a".repeat(63)}) {
            assertEquals(ok, ChatMessage.of(json("{\"content\":\"c\",\"channel\":\"" + ok + "\"}")).channel());
        }
        for (String bad : new String[] {"", "Web", "-web", "we b", "a".repeat(65), "télé"}) {
            assertEquals("channel", invalidField("{\"content\":\"c\",\"channel\":\"" + bad + "\"}"), bad);
        }
        assertEquals("channel", invalidField("{\"content\":\"c\",\"channel\":1}"));
    }

    @Test
    void threadIdsAreStringsOfAtMost256Characters() {
        assertEquals("thread_id", invalidField("{\"content\":\"c\",\"thread_id\":7}"));
        assertEquals("thread_id", invalidField("{\"content\":\"c\",\"thread_id\":\"" + "t".repeat(257) + "\"}"));
        assertEquals(Optional.of("t".repeat(256)),
                ChatMessage.of(json("{\"content\":\"c\",\"thread_id\":\"" + "t".repeat(256) + "\"}")).threadId());
    }
}
