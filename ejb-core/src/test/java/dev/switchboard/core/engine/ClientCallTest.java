package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which tools a client's request offers a model server, and how the model is to choose. */
class ClientCallTest {

    private static final JsonArray SERVER = Json.createArrayBuilder()
            .add(Json.createObjectBuilder().add("type", "function").add("name", "echo_tool"))
            .add(Json.createObjectBuilder().add("type", "function").add("name", "current_time")).build();

    private static ClientCall call(String toolChoice) {
        JsonObject request = Json.createObjectBuilder().add("tools", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "function").add("name", "get_weather"))
                .add(Json.createObjectBuilder().add("type", "function").add("name", "echo_tool")))
                .add("tool_choice", Json.createReader(new StringReader(toolChoice)).readValue()).build();
        return ClientCall.of(request, JsonValue.EMPTY_JSON_ARRAY);
    }

    private static List<String> names(JsonArray tools) {
        return tools.getValuesAs(JsonObject.class).stream().map(t -> t.getString("name")).toList();
    }

    @Test
    void theClientsAllowedToolsComeFirstThenTheServersItDoesNotShadow() {
        assertEquals(List.of("get_weather", "echo_tool", "current_time"), names(call("\"auto\"").offeredTools(SERVER)));
        ClientCall named = call("{\"type\":\"allowed_tools\",\"mode\":\"required\",\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\"}]}");
        assertEquals(List.of("get_weather", "current_time"), names(named.offeredTools(SERVER)),
                "a declared but disallowed tool still shadows the server's of that name");
        assertEquals(Set.of("get_weather"), named.allowedToolNames());
        assertEquals(Optional.of(Json.createValue("required")), named.modelToolChoice());
        assertTrue(call("\"none\"").offeredTools(SERVER).isEmpty());
        assertEquals(Optional.empty(), call("\"none\"").modelToolChoice());
        assertEquals(Optional.of(Json.createObjectBuilder().add("type", "function").add("name", "get_weather").build()),
                call("{\"type\":\"function\",\"name\":\"get_weather\"}").modelToolChoice());
    }
}
