package dev.switchboard.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationItemsTest {

    private static JsonObject user(String text) {
        return Json.createObjectBuilder().add("type", "message").add("role", "user")
                .add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("type", "input_text").add("text", text)))
                .build();
    }

    @Test
    void aRunAddsItsInputThenItsReplyAsOpenResponsesMessages() {
        List<JsonObject> items = ConversationItems.ofRun(List.of(user("a"), user("b")), "echo");
        assertEquals(3, items.size());
        assertEquals("user", items.get(0).getString("role"));
        assertEquals("a", items.get(0).getJsonArray("content").getJsonObject(0).getString("text"));
        assertEquals("b", items.get(1).getJsonArray("content").getJsonObject(0).getString("text"));
        JsonObject reply = items.get(2);
        assertEquals("message", reply.getString("type"));
        assertEquals("assistant", reply.getString("role"));
        assertEquals("completed", reply.getString("status"));
        JsonObject part = reply.getJsonArray("content").getJsonObject(0);
        assertEquals("output_text", part.getString("type"));
        assertEquals("echo", part.getString("text"));
        assertTrue(part.getJsonArray("annotations").isEmpty());
        for (JsonObject item : items) {
            assertTrue(item.getString("id").startsWith("msg_"), item.toString());
            assertEquals("completed", item.getString("status"));
        }
        assertNotEquals(items.get(0).getString("id"), items.get(1).getString("id"));
    }

    @Test
    void aRunWithoutReplyAddsItsInputOnly() {
        assertEquals(1, ConversationItems.ofRun(List.of(user("a")), null).size());
        assertEquals(1, ConversationItems.ofRun(List.of(user("a")), "").size());
    }

    @Test
    void anInputMessagesOwnIdAndStatusAreReplaced() {
        JsonObject sent = Json.createObjectBuilder(user("a")).add("id", "client-1").add("status", "in_progress").build();
        JsonObject stored = ConversationItems.ofRun(List.of(sent), null).get(0);
        assertNotEquals("client-1", stored.getString("id"));
        assertEquals("completed", stored.getString("status"));
        assertEquals("user", stored.getString("role"));
    }

    @Test
    void theToolLoopsStepsComeBetweenTheInputAndTheReplyWithTheirOwnIds() {
        String output = "{\"type\":\"message\",\"text\":\"pong!\",\"items\":["
                + "{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"c1\",\"name\":\"echo_tool\","
                + "\"arguments\":\"{}\",\"status\":\"completed\"},"
                + "{\"type\":\"function_call_output\",\"id\":\"fco_1\",\"call_id\":\"c1\",\"output\":\"pong\","
                + "\"status\":\"completed\"}]}";
        List<JsonObject> steps = ConversationItems.steps(output);
        List<JsonObject> items = ConversationItems.ofRun(List.of(user("ping")), steps, "pong!");
        assertEquals(List.of("message", "function_call", "function_call_output", "message"),
                items.stream().map(i -> i.getString("type")).toList());
        assertEquals("fc_1", items.get(1).getString("id"));
        assertEquals("fco_1", items.get(2).getString("id"));
        assertEquals("assistant", items.get(3).getString("role"));
        assertEquals(List.of(), ConversationItems.steps("{\"type\":\"message\",\"text\":\"no steps\"}"));
        assertEquals(List.of(), ConversationItems.steps("{\"items\": not json"));
        assertEquals(List.of(), ConversationItems.steps(null));
    }
}
