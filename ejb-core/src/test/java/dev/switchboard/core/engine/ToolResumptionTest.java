package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.engine.model.FunctionCalls;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ToolResumptionTest {

    private static JsonObject item(String type, String callId) {
        return Json.createObjectBuilder().add("type", type).add("call_id", callId).build();
    }

    @Test
    void aResumptionTravelsAsItsRunsInputText() {
        ToolResumption r = new ToolResumption("req", List.of(item("function_call", "c1")), false, false, "no");
        JsonObject input = r.inputItem();
        assertEquals(ToolResumption.ITEM_TYPE, input.getString("type"));
        assertEquals(Optional.of(r), ToolResumption.parse(input.getJsonArray("content").getJsonObject(0).getString("text")));
        assertEquals(Optional.empty(), ToolResumption.parse("hello"));
        assertEquals(Optional.empty(), ToolResumption.parse("{\"calls\":1}"));
    }

    @Test
    void aModelIsSentOnlyAnsweredCallsAndOutputsOfCallsItSees() {
        JsonObject message = Json.createObjectBuilder().add("type", "message").build();
        List<JsonObject> items = List.of(message, item("function_call", "a"), item("function_call_output", "a"),
                item("function_call", "dangling"), item("function_call_output", "orphan"), item("function_call", "kept"));
        assertEquals(List.of(message, items.get(1), items.get(2), items.get(5)), FunctionCalls.answered(items, Set.of("kept")));
    }
}
