package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@code POST /responses} body (Open Responses {@code CreateResponseBody}, spec §3), validated
 * and normalised: {@code input} as items (a string is one user message; a message without
 * {@code type} but with a {@code role} is accepted; string content becomes one text part), function
 * tools with {@code description}, {@code parameters} and {@code strict} present, and every field a
 * response echoes with its default ({@link #echo}). The first fault throws a {@link ResponseError}
 * naming its field. Unknown fields are ignored. Plain: unit tests drive it.
 *
 * @param echo the fields a response repeats (model — null when absent —, instructions, tools,
 *        tool_choice, truncation, parallel_tool_calls, text, top_p, presence_penalty,
 *        frequency_penalty, temperature, top_logprobs, reasoning, max_output_tokens,
 *        max_tool_calls, store, background, service_tier, metadata, safety_identifier,
 *        prompt_cache_key)
 */
public record ResponseRequest(JsonObject echo, List<JsonObject> input, Optional<String> previousResponseId,
        boolean stream, boolean store, boolean background) {

    private static final Pattern TOOL_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    private static final Set<String> INCLUDABLE = Set.of("reasoning.encrypted_content", "message.output_text.logprobs");

    public static ResponseRequest parse(JsonValue body) {
        if (!(body instanceof JsonObject request)) {
            throw new ResponseError(400, "invalid_request", "invalid_json", "", "the request body must be a JSON object");
        }
        JsonObjectBuilder echo = Jsons.createObjectBuilder();
        nullableString(request, "model").ifPresentOrElse(m -> echo.add("model", m), () -> echo.addNull("model"));
        nullableString(request, "instructions").ifPresentOrElse(i -> echo.add("instructions", i),
                () -> echo.addNull("instructions"));
        JsonArray tools = tools(request.get("tools"));
        echo.add("tools", tools);
        echo.add("tool_choice", toolChoice(request.get("tool_choice"), tools));
        echo.add("truncation", oneOf(request, "truncation", Set.of("auto", "disabled"), "disabled"));
        echo.add("parallel_tool_calls", bool(request, "parallel_tool_calls", true));
        echo.add("text", text(request.get("text")));
        echo.add("top_p", number(request, "top_p", 1.0, 0, 1));
        echo.add("presence_penalty", number(request, "presence_penalty", 0.0, -2, 2));
        echo.add("frequency_penalty", number(request, "frequency_penalty", 0.0, -2, 2));
        echo.add("temperature", number(request, "temperature", 1.0, 0, 2));
        echo.add("top_logprobs", integer(request, "top_logprobs", 0, 20).orElse(0));
        JsonValue reasoning = reasoning(request.get("reasoning"));
        echo.add("reasoning", reasoning);
        integer(request, "max_output_tokens", 1, Integer.MAX_VALUE).ifPresentOrElse(m -> echo.add("max_output_tokens", m),
                () -> echo.addNull("max_output_tokens"));
        integer(request, "max_tool_calls", 0, Integer.MAX_VALUE).ifPresentOrElse(m -> echo.add("max_tool_calls", m),
                () -> echo.addNull("max_tool_calls"));
        boolean store = bool(request, "store", true);
        boolean background = bool(request, "background", false);
        boolean stream = bool(request, "stream", false);
        if (background && !store) {
            throw ResponseError.invalid("background", "background responses must be stored (store: true)");
        }
        echo.add("store", store).add("background", background);
        oneOf(request, "service_tier", Set.of("auto", "default", "flex", "priority"), "default");
        echo.add("service_tier", "default");
        echo.add("metadata", metadata(request.get("metadata")));
        nullableString(request, "safety_identifier").ifPresentOrElse(s -> echo.add("safety_identifier", s),
                () -> echo.addNull("safety_identifier"));
        nullableString(request, "prompt_cache_key").ifPresentOrElse(s -> echo.add("prompt_cache_key", s),
                () -> echo.addNull("prompt_cache_key"));
        include(request.get("include"));
        if (present(request.get("stream_options")) && !(request.get("stream_options") instanceof JsonObject)) {
            throw ResponseError.invalid("stream_options", "stream_options must be an object");
        }
        Optional<String> previous = nullableString(request, "previous_response_id");
        List<JsonObject> input = input(request.get("input"));
        if (input.isEmpty()) {
            throw ResponseError.invalid("input", "input is required");
        }
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

    // ------------------------------------------------------------------ input

    private static List<JsonObject> input(JsonValue input) {
        if (!present(input)) {
            return List.of();
        }
        if (input instanceof JsonString text) {
            return text.getString().isEmpty() ? List.of() : List.of(message("user", textParts("user", text.getString())));
        }
        if (!(input instanceof JsonArray items)) {
            throw ResponseError.invalid("input", "input must be a string or an array of items");
        }
        List<JsonObject> normalised = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String path = "input[" + i + "]";
            if (!(items.get(i) instanceof JsonObject item)) {
                throw ResponseError.invalid(path, path + " must be an object");
            }
            normalised.add(item(item, path));
        }
        return normalised;
    }

    private static JsonObject item(JsonObject item, String path) {
        String type = nullableString(item, "type", path + ".type").orElse(item.containsKey("role") ? "message" : "");
        switch (type) {
            case "message" -> {
                String role = requiredString(item, "role", path);
                if (!Set.of("user", "system", "developer", "assistant").contains(role)) {
                    throw ResponseError.invalid(path + ".role", path + ".role must be user, system, developer or assistant");
                }
                JsonValue content = item.get("content");
                JsonArray parts;
                if (content instanceof JsonString s) {
                    parts = textParts(role, s.getString());
                } else if (content instanceof JsonArray array) {
                    parts = parts(role, array, path + ".content");
                } else {
                    throw ResponseError.invalid(path + ".content", path + ".content must be a string or an array of parts");
                }
                JsonObjectBuilder message = Jsons.createObjectBuilder(item).add("type", "message").add("role", role)
                        .add("content", parts);
                return message.build();
            }
            case "function_call" -> {
                String callId = requiredString(item, "call_id", path);
                if (callId.isEmpty() || callId.length() > 64) {
                    throw ResponseError.invalid(path + ".call_id", path + ".call_id must be 1 to 64 characters");
                }
                if (!TOOL_NAME.matcher(requiredString(item, "name", path)).matches()) {
                    throw ResponseError.invalid(path + ".name", path + ".name must match ^[a-zA-Z0-9_-]{1,64}$");
                }
                requiredString(item, "arguments", path);
                return item;
            }
            case "function_call_output" -> {
                requiredString(item, "call_id", path);
                JsonValue output = item.get("output");
                if (!(output instanceof JsonString) && !(output instanceof JsonArray)) {
                    throw ResponseError.invalid(path + ".output", path + ".output must be a string or an array of parts");
                }
                return item;
            }
            case "reasoning" -> {
                if (!(item.get("summary") instanceof JsonArray)) {
                    throw ResponseError.invalid(path + ".summary", path + ".summary must be an array");
                }
                return item;
            }
            case "compaction" -> {
                requiredString(item, "encrypted_content", path);
                return item;
            }
            case "item_reference" -> throw ResponseError.invalid(path + ".type",
                    "item_reference is not supported: send the item itself, or continue with previous_response_id");
            default -> throw ResponseError.invalid(path + ".type", path + ".type must be message, function_call,"
                    + " function_call_output, reasoning or compaction");
        }
    }

    private static JsonObject message(String role, JsonArray parts) {
        return Jsons.createObjectBuilder().add("type", "message").add("role", role).add("content", parts).build();
    }

    private static JsonArray textParts(String role, String text) {
        JsonObjectBuilder part = Jsons.createObjectBuilder().add("type", "assistant".equals(role) ? "output_text" : "input_text")
                .add("text", text);
        if ("assistant".equals(role)) {
            part.add("annotations", JsonValue.EMPTY_JSON_ARRAY);
        }
        return Jsons.createArrayBuilder().add(part).build();
    }

    private static JsonArray parts(String role, JsonArray parts, String path) {
        Set<String> allowed = switch (role) {
            case "user" -> Set.of("input_text", "input_image", "input_file");
            case "assistant" -> Set.of("output_text", "refusal");
            default -> Set.of("input_text");
        };
        for (int j = 0; j < parts.size(); j++) {
            String partPath = path + "[" + j + "]";
            if (!(parts.get(j) instanceof JsonObject part)) {
                throw ResponseError.invalid(partPath, partPath + " must be an object");
            }
            String type = requiredString(part, "type", partPath);
            if (!allowed.contains(type)) {
                throw ResponseError.invalid(partPath + ".type", partPath + ".type must be one of " + new java.util.TreeSet<>(allowed)
                        + " in a " + role + " message");
            }
            switch (type) {
                case "input_text", "output_text" -> requiredString(part, "text", partPath);
                case "refusal" -> requiredString(part, "refusal", partPath);
                case "input_image" -> {
                    if (nullableString(part, "image_url", partPath + ".image_url").isEmpty()
                            && nullableString(part, "file_id", partPath + ".file_id").isEmpty()) {
                        throw ResponseError.invalid(partPath + ".image_url", partPath + ".image_url is required");
                    }
                    nullableString(part, "detail", partPath + ".detail").ifPresent(d -> {
                        if (!Set.of("low", "high", "auto").contains(d)) {
                            throw ResponseError.invalid(partPath + ".detail", partPath + ".detail must be low, high or auto");
                        }
                    });
                }
                default -> { // input_file: one of its sources
                    if (nullableString(part, "file_data", partPath + ".file_data").isEmpty()
                            && nullableString(part, "file_url", partPath + ".file_url").isEmpty()
                            && nullableString(part, "file_id", partPath + ".file_id").isEmpty()) {
                        throw ResponseError.invalid(partPath, partPath + " needs file_data, file_url or file_id");
                    }
                }
            }
        }
        return parts;
    }

    // ------------------------------------------------------------------ tools

    private static JsonArray tools(JsonValue tools) {
        JsonArrayBuilder normalised = Jsons.createArrayBuilder();
        if (!present(tools)) {
            return normalised.build();
        }
        if (!(tools instanceof JsonArray array)) {
            throw ResponseError.invalid("tools", "tools must be an array");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            String path = "tools[" + i + "]";
            if (!(array.get(i) instanceof JsonObject tool)) {
                throw ResponseError.invalid(path, path + " must be an object");
            }
            if (!"function".equals(requiredString(tool, "type", path))) {
                throw ResponseError.invalid(path + ".type", path + ".type must be 'function' (the only tool type served)");
            }
            String name = requiredString(tool, "name", path);
            if (!TOOL_NAME.matcher(name).matches()) {
                throw ResponseError.invalid(path + ".name", path + ".name must match ^[a-zA-Z0-9_-]{1,64}$");
            }
            if (!names.add(name)) {
                throw ResponseError.invalid(path + ".name", "tool " + name + " is declared twice");
            }
            JsonObjectBuilder t = Jsons.createObjectBuilder().add("type", "function").add("name", name);
            nullableString(tool, "description", path + ".description").ifPresentOrElse(d -> t.add("description", d),
                    () -> t.addNull("description"));
            JsonValue parameters = tool.get("parameters");
            if (present(parameters) && !(parameters instanceof JsonObject)) {
                throw ResponseError.invalid(path + ".parameters", path + ".parameters must be a JSON schema object");
            }
            t.add("parameters", present(parameters) ? parameters : JsonValue.NULL);
            JsonValue strict = tool.get("strict");
            if (present(strict) && strict.getValueType() != JsonValue.ValueType.TRUE
                    && strict.getValueType() != JsonValue.ValueType.FALSE) {
                throw ResponseError.invalid(path + ".strict", path + ".strict must be a boolean");
            }
            t.add("strict", present(strict) ? strict : JsonValue.NULL);
            normalised.add(t);
        }
        return normalised.build();
    }

    private static JsonValue toolChoice(JsonValue choice, JsonArray tools) {
        if (!present(choice)) {
            return Jsons.createValue("auto");
        }
        Set<String> declared = new HashSet<>();
        tools.getValuesAs(JsonObject.class).forEach(t -> declared.add(t.getString("name")));
        if (choice instanceof JsonString mode) {
            if (!Set.of("none", "auto", "required").contains(mode.getString())) {
                throw ResponseError.invalid("tool_choice", "tool_choice must be none, auto, required or an object");
            }
            if ("required".equals(mode.getString()) && declared.isEmpty()) {
                throw ResponseError.invalid("tool_choice", "tool_choice 'required' needs at least one tool");
            }
            return choice;
        }
        if (!(choice instanceof JsonObject object)) {
            throw ResponseError.invalid("tool_choice", "tool_choice must be none, auto, required or an object");
        }
        String type = requiredString(object, "type", "tool_choice");
        if ("function".equals(type)) {
            String name = requiredString(object, "name", "tool_choice");
            if (!declared.contains(name)) {
                throw ResponseError.invalid("tool_choice.name", "tool_choice names " + name + ", which is not among the tools");
            }
            return Jsons.createObjectBuilder().add("type", "function").add("name", name).build();
        }
        if ("allowed_tools".equals(type)) {
            if (!(object.get("tools") instanceof JsonArray allowed) || allowed.isEmpty()) {
                throw ResponseError.invalid("tool_choice.tools", "tool_choice.tools must be a non-empty array");
            }
            JsonArrayBuilder names = Jsons.createArrayBuilder();
            for (int i = 0; i < allowed.size(); i++) {
                String path = "tool_choice.tools[" + i + "]";
                if (!(allowed.get(i) instanceof JsonObject tool) || !"function".equals(tool.getString("type", ""))) {
                    throw ResponseError.invalid(path, path + " must be {\"type\":\"function\",\"name\":…}");
                }
                String name = requiredString(tool, "name", path);
                if (!declared.contains(name)) {
                    throw ResponseError.invalid(path + ".name", path + " names " + name + ", which is not among the tools");
                }
                names.add(Jsons.createObjectBuilder().add("type", "function").add("name", name));
            }
            return Jsons.createObjectBuilder().add("type", "allowed_tools")
                    .add("mode", oneOf(object, "mode", Set.of("auto", "required"), "auto")).add("tools", names).build();
        }
        throw ResponseError.invalid("tool_choice.type", "tool_choice.type must be function or allowed_tools"
                + " (hosted tools are not served)");
    }

    // ------------------------------------------------------------------ options

    private static JsonObject text(JsonValue text) {
        if (!present(text)) {
            return Jsons.createObjectBuilder().add("format", Jsons.createObjectBuilder().add("type", "text")).build();
        }
        if (!(text instanceof JsonObject object)) {
            throw ResponseError.invalid("text", "text must be an object");
        }
        JsonObjectBuilder normalised = Jsons.createObjectBuilder(object);
        JsonValue format = object.get("format");
        if (!present(format)) {
            normalised.add("format", Jsons.createObjectBuilder().add("type", "text"));
        } else if (!(format instanceof JsonObject f)
                || !Set.of("text", "json_schema", "json_object").contains(f.getString("type", ""))) {
            throw ResponseError.invalid("text.format.type", "text.format.type must be text, json_schema or json_object");
        }
        oneOf(object, "verbosity", Set.of("low", "medium", "high"), "medium");
        return normalised.build();
    }

    private static JsonValue reasoning(JsonValue reasoning) {
        if (!present(reasoning)) {
            return JsonValue.NULL;
        }
        if (!(reasoning instanceof JsonObject object)) {
            throw ResponseError.invalid("reasoning", "reasoning must be an object");
        }
        JsonObjectBuilder r = Jsons.createObjectBuilder();
        r.add("effort", present(object.get("effort"))
                ? Jsons.createValue(oneOf(object, "effort", Set.of("none", "minimal", "low", "medium", "high", "xhigh"), ""))
                : JsonValue.NULL);
        r.add("summary", present(object.get("summary"))
                ? Jsons.createValue(oneOf(object, "summary", Set.of("concise", "detailed", "auto"), ""))
                : JsonValue.NULL);
        return r.build();
    }

    private static JsonObject metadata(JsonValue metadata) {
        if (!present(metadata)) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        if (!(metadata instanceof JsonObject map)) {
            throw ResponseError.invalid("metadata", "metadata must be an object of strings");
        }
        if (map.size() > 16) {
            throw ResponseError.invalid("metadata", "metadata may hold at most 16 keys");
        }
        for (Map.Entry<String, JsonValue> e : map.entrySet()) {
            if (e.getKey().length() > 64) {
                throw ResponseError.invalid("metadata", "metadata keys are at most 64 characters");
            }
            if (!(e.getValue() instanceof JsonString value) || value.getString().length() > 512) {
                throw ResponseError.invalid("metadata." + e.getKey(), "metadata values are strings of at most 512 characters");
            }
        }
        return map;
    }

    private static void include(JsonValue include) {
        if (!present(include)) {
            return;
        }
        if (!(include instanceof JsonArray values)) {
            throw ResponseError.invalid("include", "include must be an array");
        }
        for (JsonValue value : values) {
            if (!(value instanceof JsonString s) || !INCLUDABLE.contains(s.getString())) {
                throw ResponseError.invalid("include", "include may list " + new java.util.TreeSet<>(INCLUDABLE));
            }
        }
    }

    // ------------------------------------------------------------------ primitives

    private static boolean present(JsonValue value) {
        return value != null && value.getValueType() != JsonValue.ValueType.NULL;
    }

    private static Optional<String> nullableString(JsonObject object, String key) {
        return nullableString(object, key, key);
    }

    private static Optional<String> nullableString(JsonObject object, String key, String path) {
        JsonValue value = object.get(key);
        if (!present(value)) {
            return Optional.empty();
        }
        if (!(value instanceof JsonString s)) {
            throw ResponseError.invalid(path, path + " must be a string");
        }
        return Optional.of(s.getString());
    }

    private static String requiredString(JsonObject object, String key, String path) {
        return nullableString(object, key, path + "." + key)
                .orElseThrow(() -> ResponseError.invalid(path + "." + key, path + "." + key + " is required"));
    }

    private static String oneOf(JsonObject object, String key, Set<String> values, String fallback) {
        Optional<String> value = nullableString(object, key);
        if (value.isPresent() && !values.contains(value.get())) {
            throw ResponseError.invalid(key, key + " must be one of " + new java.util.TreeSet<>(values));
        }
        return value.orElse(fallback);
    }

    private static boolean bool(JsonObject object, String key, boolean fallback) {
        JsonValue value = object.get(key);
        if (!present(value)) {
            return fallback;
        }
        if (value.getValueType() == JsonValue.ValueType.TRUE) {
            return true;
        }
        if (value.getValueType() == JsonValue.ValueType.FALSE) {
            return false;
        }
        throw ResponseError.invalid(key, key + " must be a boolean");
    }

    private static double number(JsonObject object, String key, double fallback, double min, double max) {
        JsonValue value = object.get(key);
        if (!present(value)) {
            return fallback;
        }
        if (!(value instanceof JsonNumber n)) {
            throw ResponseError.invalid(key, key + " must be a number");
        }
        double d = n.doubleValue();
        if (d < min || d > max) {
            throw ResponseError.invalid(key, key + " must be between " + min + " and " + max);
        }
        return d;
    }

    private static Optional<Integer> integer(JsonObject object, String key, int min, int max) {
        JsonValue value = object.get(key);
        if (!present(value)) {
            return Optional.empty();
        }
        if (!(value instanceof JsonNumber n) || !n.isIntegral() || n.bigDecimalValue().compareTo(java.math.BigDecimal.valueOf(min)) < 0
                || n.bigDecimalValue().compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
            throw ResponseError.invalid(key, key + " must be an integer from " + min + " to " + max);
        }
        return Optional.of(n.intValue());
    }
}
