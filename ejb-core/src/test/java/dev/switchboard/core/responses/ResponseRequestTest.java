package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a {@code POST /responses} body is validated and normalised, and how a response is written. */
class ResponseRequestTest {

    private static ResponseRequest parse(String json) {
        return ResponseRequest.parse(Json.createReader(new StringReader(json)).readValue());
    }

    private static ResponseError refused(String json) {
        return assertThrows(ResponseError.class, () -> parse(json));
    }

    @Test
    void aStringInputIsOneUserMessageAndEveryEchoedFieldHasItsDefault() {
        ResponseRequest r = parse("{\"input\":\"hi\"}");
        assertEquals(List.of(Json.createReader(new StringReader(
                "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}"))
                .readObject()), r.input());
        JsonObject echo = r.echo();
        assertEquals(JsonValue.NULL, echo.get("model"));
        assertEquals("auto", echo.getString("tool_choice"));
        assertEquals("disabled", echo.getString("truncation"));
        assertEquals(1.0, echo.getJsonNumber("top_p").doubleValue());
        assertEquals(0, echo.getInt("top_logprobs"));
        assertEquals("default", echo.getString("service_tier"));
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, echo.getJsonObject("metadata"));
        assertTrue(r.store());
        assertFalse(r.stream());
        assertFalse(r.background());
    }

    @Test
    void messagesWithoutTypeAndStringContentAreNormalisedAndToolsGetEveryKey() {
        ResponseRequest r = parse("{\"input\":[{\"role\":\"assistant\",\"content\":\"before\"},"
                + "{\"type\":\"function_call_output\",\"call_id\":\"c\",\"output\":\"x\"}],"
                + "\"tools\":[{\"type\":\"function\",\"name\":\"f\"}],"
                + "\"tool_choice\":{\"type\":\"function\",\"name\":\"f\"}}");
        JsonObject assistant = r.input().get(0);
        assertEquals("message", assistant.getString("type"));
        assertEquals("output_text", assistant.getJsonArray("content").getJsonObject(0).getString("type"));
        JsonObject tool = r.echo().getJsonArray("tools").getJsonObject(0);
        assertEquals(List.of("type", "name", "description", "parameters", "strict"), List.copyOf(tool.keySet()));
        assertEquals("f", r.echo().getJsonObject("tool_choice").getString("name"));
    }

    @Test
    void eachFaultNamesItsField() {
        assertEquals("invalid_json", refused("[]").code());
        assertEquals("input", refused("{}").param());
        assertEquals("input", refused("{\"input\":\"\"}").param());
        assertEquals("input[0].content[0].type", refused(
                "{\"input\":[{\"role\":\"system\",\"content\":[{\"type\":\"input_image\",\"image_url\":\"u\"}]}]}").param());
        assertEquals("input[0].name", refused(
                "{\"input\":[{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"bad name\",\"arguments\":\"{}\"}]}").param());
        assertEquals("tool_choice.name", refused("{\"input\":\"x\",\"tool_choice\":{\"type\":\"function\",\"name\":\"g\"}}")
                .param());
        assertEquals("tool_choice", refused("{\"input\":\"x\",\"tool_choice\":\"required\"}").param(),
                "required needs a tool");
        assertEquals("tools[0].type", refused("{\"input\":\"x\",\"tools\":[{\"type\":\"web_search\"}]}").param());
        assertEquals("max_output_tokens", refused("{\"input\":\"x\",\"max_output_tokens\":1.5}").param());
        assertEquals("metadata.k", refused("{\"input\":\"x\",\"metadata\":{\"k\":1}}").param());
        assertEquals("background", refused("{\"input\":\"x\",\"background\":true,\"store\":false}").param());
        ResponseError e = refused("{\"input\":\"x\",\"stream\":\"yes\"}");
        assertEquals(400, e.status());
        assertEquals("invalid_request", e.type());
        assertEquals("invalid_value", e.code());
        assertEquals("stream", e.param());
    }

    @Test
    void aRunsOutputBecomesItemsWithStableIdsAndOnlyTheClientsCalls() {
        JsonObject output = Json.createReader(new StringReader("{\"type\":\"message\",\"text\":\"done\",\"items\":["
                + "{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"own\",\"name\":\"t\",\"arguments\":\"{}\",\"status\":\"completed\"},"
                + "{\"type\":\"function_call_output\",\"id\":\"fco_1\",\"call_id\":\"own\",\"output\":\"o\",\"status\":\"completed\"},"
                + "{\"type\":\"function_call\",\"id\":\"fc_2\",\"call_id\":\"client\",\"name\":\"c\",\"arguments\":\"{}\"}],"
                + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}")).readObject();
        List<JsonObject> items = ResponseObjects.outputItems("resp_abc", output);
        assertEquals(2, items.size());
        assertEquals("msg_abc", items.get(0).getString("id"));
        assertEquals("final_answer", items.get(0).getString("phase"));
        assertEquals("client", items.get(1).getString("call_id"));
        assertEquals("completed", items.get(1).getString("status"));
        ResponseObjects.State state = ResponseObjects.state("resp_abc", "succeeded", output.toString(), null, null, 2_000L);
        assertEquals(4, state.usage().asJsonObject().getInt("total_tokens"));
        assertEquals("cancelled", ResponseObjects.state("resp_abc", "failed", null, "superseded", "x", 1L).status());
        ResponseObjects.State failed = ResponseObjects.state("resp_abc", "failed", null, "engine_error", "boom", 1L);
        assertEquals("failed", failed.status());
        assertEquals("boom", failed.error().asJsonObject().getString("message"));
        assertEquals("in_progress", ResponseObjects.state("resp_abc", "executing", null, null, null, null).status());
    }

    @Test
    void aWebSocketMessageIsACreateBodyWithItsType() {
        ResponseRequest r = ResponseRequest.fromSocketMessage(Json.createReader(new StringReader(
                "{\"type\":\"response.create\",\"input\":\"hi\",\"stream\":false,\"stream_options\":5}")).readValue());
        assertEquals(1, r.input().size(), "stream and stream_options do not apply over a socket");
        ResponseError type = assertThrows(ResponseError.class, () -> ResponseRequest.fromSocketMessage(
                Json.createReader(new StringReader("{\"type\":\"response.cancel\",\"input\":\"hi\"}")).readValue()));
        assertEquals("type", type.param());
        ResponseError background = assertThrows(ResponseError.class, () -> ResponseRequest.fromSocketMessage(
                Json.createReader(new StringReader("{\"type\":\"response.create\",\"input\":\"hi\",\"background\":true}"))
                        .readValue()));
        assertEquals("background", background.param());
        assertEquals("invalid_json", assertThrows(ResponseError.class,
                () -> ResponseRequest.fromSocketMessage(Json.createValue(5))).code());
    }
}
