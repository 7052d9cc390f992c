package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code POST /responses} body (Open Responses {@code CreateResponseBody}, spec §3), validated
 * and normalised: {@code input} as items (a string is one user message; a message without
 * {@code type} but with a {@code role} is accepted; string content becomes one text part), function
 * tools with {@code description}, {@code parameters} and {@code strict} present, and every field a
 * response echoes with its default ({@link #echo}). The first fault throws a {@link ResponseError}
 * naming its field. Unknown fields are ignored. Plain: unit tests drive it. The input is read by
 * {@link RequestInput}, the tools by {@link RequestTools}, the object options by
 * {@link RequestOptions}, every field through {@link RequestFields}.
 *
 * @param echo the fields a response repeats (model — null when absent —, instructions, tools,
 *        tool_choice, truncation, parallel_tool_calls, text, top_p, presence_penalty,
 *        frequency_penalty, temperature, top_logprobs, reasoning, max_output_tokens,
 *        max_tool_calls, store, background, service_tier, metadata, safety_identifier,
 *        prompt_cache_key)
 */
public record ResponseRequest(JsonObject echo, List<JsonObject> input, Optional<String> previousResponseId,
        boolean stream, boolean store, boolean background) {

    public static ResponseRequest parse(JsonValue body) {
        ResponseRequest request = parseFields(body);
        if (request.input().isEmpty()) {
            throw ResponseError.invalid("input", "input is required");
        }
        return request;
    }

    /**
     * A {@code POST /responses/compact} body (spec §10): as {@link #parse}, but {@code input} may be
     * absent, null or empty — the conversation of {@code previous_response_id} alone is compacted.
     */
    public static ResponseRequest parseCompaction(JsonValue body) {
        return parseFields(body);
    }

    private static ResponseRequest parseFields(JsonValue body) {
        if (!(body instanceof JsonObject request)) {
            throw new ResponseError(400, "invalid_request", "invalid_json", "", "the request body must be a JSON object");
        }
        JsonObjectBuilder echo = Jsons.createObjectBuilder();
        RequestFields.nullableString(request, "model").ifPresentOrElse(m -> echo.add("model", m),
                () -> echo.addNull("model"));
        RequestFields.nullableString(request, "instructions").ifPresentOrElse(i -> echo.add("instructions", i),
                () -> echo.addNull("instructions"));
        JsonArray tools = RequestTools.tools(request.get("tools"));
        echo.add("tools", tools);
        echo.add("tool_choice", RequestTools.toolChoice(request.get("tool_choice"), tools));
        echo.add("truncation", RequestFields.oneOf(request, "truncation", Set.of("auto", "disabled"), "disabled"));
        echo.add("parallel_tool_calls", RequestFields.bool(request, "parallel_tool_calls", true));
        echo.add("text", RequestOptions.text(request.get("text")));
        echo.add("top_p", RequestFields.number(request, "top_p", 1.0, 0, 1));
        echo.add("presence_penalty", RequestFields.number(request, "presence_penalty", 0.0, -2, 2));
        echo.add("frequency_penalty", RequestFields.number(request, "frequency_penalty", 0.0, -2, 2));
        echo.add("temperature", RequestFields.number(request, "temperature", 1.0, 0, 2));
        echo.add("top_logprobs", RequestFields.integer(request, "top_logprobs", 0, 20).orElse(0));
        JsonValue reasoning = RequestOptions.reasoning(request.get("reasoning"));
        echo.add("reasoning", reasoning);
        RequestFields.integer(request, "max_output_tokens", 1, Integer.MAX_VALUE)
                .ifPresentOrElse(m -> echo.add("max_output_tokens", m), () -> echo.addNull("max_output_tokens"));
        RequestFields.integer(request, "max_tool_calls", 0, Integer.MAX_VALUE)
                .ifPresentOrElse(m -> echo.add("max_tool_calls", m), () -> echo.addNull("max_tool_calls"));
        boolean store = RequestFields.bool(request, "store", true);
        boolean background = RequestFields.bool(request, "background", false);
        boolean stream = RequestFields.bool(request, "stream", false);
        if (background && !store) {
            throw ResponseError.invalid("background", "background responses must be stored (store: true)");
        }
        echo.add("store", store).add("background", background);
        RequestFields.oneOf(request, "service_tier", Set.of("auto", "default", "flex", "priority"), "default");
        echo.add("service_tier", "default");
        echo.add("metadata", RequestOptions.metadata(request.get("metadata")));
        RequestFields.nullableString(request, "safety_identifier")
                .ifPresentOrElse(s -> echo.add("safety_identifier", s), () -> echo.addNull("safety_identifier"));
        RequestFields.nullableString(request, "prompt_cache_key")
                .ifPresentOrElse(s -> echo.add("prompt_cache_key", s), () -> echo.addNull("prompt_cache_key"));
        RequestOptions.include(request.get("include"));
        if (RequestFields.present(request.get("stream_options"))
                && !(request.get("stream_options") instanceof JsonObject)) {
            throw ResponseError.invalid("stream_options", "stream_options must be an object");
        }
        Optional<String> previous = RequestFields.nullableString(request, "previous_response_id");
        List<JsonObject> input = RequestInput.items(request.get("input"));
        return new ResponseRequest(echo.build(), List.copyOf(input), previous, stream, store, background);
    }

    /**
     * A WebSocket message (spec §9): {@code {"type":"response.create", …the create body}}; its
     * {@code stream} and {@code stream_options} do not apply (every response streams) and
     * {@code background} is refused.
     */
    public static ResponseRequest fromSocketMessage(JsonValue message) {
        if (!(message instanceof JsonObject body)) {
            throw new ResponseError(400, "invalid_request", "invalid_json", "", "a message must be one JSON object");
        }
        if (!"response.create".equals(body.getString("type", null))) {
            throw new ResponseError(400, "invalid_request", "invalid_value", "type", "a message must have type response.create");
        }
        if (body.get("background") == JsonValue.TRUE) {
            throw ResponseError.invalid("background", "background responses are not available over a WebSocket");
        }
        return parse(Jsons.createObjectBuilder(body).remove("type").remove("stream").remove("stream_options").build());
    }
}
