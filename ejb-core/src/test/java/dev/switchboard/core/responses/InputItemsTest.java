package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The input items of a response, named and paged as OpenAI's list; and the calls an input may answer. */
class InputItemsTest {

    private static JsonObject said(String text) {
        return Json.createObjectBuilder().add("type", "message").add("role", "user").add("content", text).build();
    }

    private static List<JsonObject> items() {
        return InputItems.of("resp_abc", List.of(said("a"), said("b")), List.of(said("c"),
                Json.createObjectBuilder(said("d")).add("id", "msg_own").build()));
    }

    private static List<String> ids(JsonObject page) {
        return page.getJsonArray("data").stream().map(i -> i.asJsonObject().getString("id")).toList();
    }

    @Test
    void itemsAreNamedByResponseAndPlaceUnlessTheyHaveAnId() {
        assertEquals(List.of("item_abc_0", "item_abc_1", "item_abc_2", "msg_own"), items().stream()
                .map(i -> i.getString("id")).toList());
        assertEquals(items(), items(), "the same names on every read");
        assertEquals("c", items().get(2).getString("content"), "the item itself is kept");
    }

    @Test
    void pagesGoNewestFirstUnlessAscendingAndFollowTheCursors() {
        JsonObject first = InputItems.page(items(), new InputItems.Query(null, null, "2", null));
        assertEquals(List.of("msg_own", "item_abc_2"), ids(first));
        assertTrue(first.getBoolean("has_more"));
        assertEquals("msg_own", first.getString("first_id"));
        assertEquals("item_abc_2", first.getString("last_id"));
        JsonObject second = InputItems.page(items(), new InputItems.Query("item_abc_2", null, "2", null));
        assertEquals(List.of("item_abc_1", "item_abc_0"), ids(second));
        assertFalse(second.getBoolean("has_more"));
        assertEquals(List.of("item_abc_0", "item_abc_1"), ids(InputItems.page(items(),
                new InputItems.Query(null, "item_abc_2", null, "asc"))));
        JsonObject none = InputItems.page(items(), new InputItems.Query("item_abc_0", null, null, null));
        assertEquals(List.of(), ids(none));
        assertEquals(JsonValue.NULL, none.get("first_id"));
        assertEquals(20, InputItems.DEFAULT_LIMIT);
    }

    @Test
    void badQueriesAreRefusedNamingTheParameter() {
        for (String limit : List.of("0", "101", "x", "-1")) {
            ResponseError e = assertThrows(ResponseError.class,
                    () -> InputItems.page(items(), new InputItems.Query(null, null, limit, null)));
            assertEquals("limit", e.param());
        }
        assertEquals("order", assertThrows(ResponseError.class,
                () -> InputItems.page(items(), new InputItems.Query(null, null, null, "newest"))).param());
        assertEquals("after", assertThrows(ResponseError.class,
                () -> InputItems.page(items(), new InputItems.Query("item_nope", null, null, null))).param());
        assertEquals("before", assertThrows(ResponseError.class,
                () -> InputItems.page(items(), new InputItems.Query(null, "item_nope", null, null))).param());
    }

    private static JsonObject call(String id) {
        return Json.createObjectBuilder().add("type", "function_call").add("call_id", id).add("name", "f")
                .add("arguments", "{}").build();
    }

    private static JsonObject output(String id) {
        return Json.createObjectBuilder().add("type", "function_call_output").add("call_id", id).add("output", "x").build();
    }

    @Test
    void anOutputAnswersOnlyACallMadeEarlierInTheConversation() {
        ResponseService.answersOnlyCallsMade(List.of(call("c1")), List.of(output("c1")));
        ResponseService.answersOnlyCallsMade(List.of(), List.of(call("c2"), output("c2")));
        ResponseError e = assertThrows(ResponseError.class,
                () -> ResponseService.answersOnlyCallsMade(List.of(call("c1")), List.of(said("x"), output("c9"))));
        assertEquals(400, e.status());
        assertEquals("invalid_value", e.code());
        assertEquals("input[1].call_id", e.param());
        assertTrue(e.getMessage().contains("c9"));
        assertThrows(ResponseError.class, () -> ResponseService.answersOnlyCallsMade(List.of(), List.of(output("c2"), call("c2"))),
                "an answer before its call answers nothing yet");
    }
}
