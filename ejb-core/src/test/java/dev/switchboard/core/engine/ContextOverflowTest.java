package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec §11.3: what an overflow looks like, and what the one retry keeps. */
class ContextOverflowTest {

    private static JsonObject message(String role, String text) {
        return Json.createObjectBuilder().add("type", "message").add("role", role).add("content", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "input_text").add("text", text))).build();
    }

    private static String text(JsonObject item) {
        return item.getJsonArray("content").getJsonObject(0).getString("text");
    }

    @Test
    void anOverflowIsAFourHundredThatSaysSo() {
        assertTrue(ContextOverflow.isOverflow(400, "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"x\"}}"));
        assertTrue(ContextOverflow.isOverflow(400, "{\"error\":{\"message\":\"This model's maximum context length is 8192\"}}"));
        assertTrue(ContextOverflow.isOverflow(413, "the request exceeds the context window"));
        assertFalse(ContextOverflow.isOverflow(400, "{\"error\":{\"message\":\"model not found\"}}"));
        assertFalse(ContextOverflow.isOverflow(500, "context_length_exceeded"));
        assertFalse(ContextOverflow.isOverflow(400, null));
    }

    @Test
    void theRetryKeepsSystemMessagesTheNoteAndTheNewestExchange() {
        JsonObject call = Json.createObjectBuilder().add("type", "function_call").add("call_id", "c").add("name", "t")
                .add("arguments", "{}").build();
        List<JsonObject> input = List.of(message("system", "be brief"), message("user", "old question"),
                message("assistant", "old answer"), message("developer", "dev note"), message("user", "new question"), call);
        List<JsonObject> fitted = ContextOverflow.emergency(input);
        assertEquals(List.of("be brief", "dev note", ContextOverflow.NOTE, "new question"),
                fitted.subList(0, 4).stream().map(ContextOverflowTest::text).toList());
        assertEquals("system", fitted.get(2).getString("role"));
        assertEquals(call, fitted.get(4), "everything after the newest user message stays");
        assertEquals(5, fitted.size());
    }

    @Test
    void nothingEarlierToDropLeavesTheInputAsItIs() {
        List<JsonObject> onlyNew = List.of(message("system", "be brief"), message("user", "q"));
        assertSame(onlyNew, ContextOverflow.emergency(onlyNew), "no note without earlier history");
        List<JsonObject> noUser = List.of(message("assistant", "a"));
        assertSame(noUser, ContextOverflow.emergency(noUser));
    }
}
