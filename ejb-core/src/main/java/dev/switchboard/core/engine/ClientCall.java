package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A run that a client shaped as a model request ({@code POST /responses}): its new input items
 * (the conversation before them is the request's {@link EngineRequest#history()}), and the model,
 * instructions, function tools, tool choice and output limit it asked for. The tools are the
 * client's: a call of one ends the run with that {@code function_call} for the client to answer.
 *
 * @param tools Open Responses function tool declarations ({@code type}, {@code name},
 *        {@code description}, {@code parameters}, {@code strict})
 * @param toolChoice {@code "none"}, {@code "auto"}, {@code "required"}, {@code {type:function,name}}
 *        or {@code {type:allowed_tools,tools:[{type:function,name}],mode}}
 */
public record ClientCall(List<JsonObject> input, Optional<String> model, Optional<String> instructions,
        JsonArray tools, JsonValue toolChoice, Optional<Integer> maxOutputTokens) {

    private static final JsonValue AUTO = Jsons.createValue("auto");

    /** The call a stored request asks for: {@code request} holds the normalised fields, {@code input} the new items. */
    public static ClientCall of(JsonObject request, JsonArray input) {
        return new ClientCall(input.getValuesAs(JsonObject.class), string(request, "model"), string(request, "instructions"),
                request.getJsonArray("tools"), request.getOrDefault("tool_choice", JsonValue.NULL),
                request.get("max_output_tokens") instanceof JsonNumber n ? Optional.of(n.intValue()) : Optional.empty());
    }

    private static Optional<String> string(JsonObject o, String key) {
        return o.get(key) instanceof JsonString s ? Optional.of(s.getString()) : Optional.empty();
    }

    /** The declared tools the tool choice lets the model call, in declaration order. */
    public List<JsonObject> allowedTools() {
        List<JsonObject> declared = tools.getValuesAs(JsonObject.class);
        if (toolChoice instanceof JsonString choice) {
            return "none".equals(choice.getString()) ? List.of() : declared;
        }
        if (!(toolChoice instanceof JsonObject choice)) {
            return declared;
        }
        Set<String> names = "allowed_tools".equals(choice.getString("type", ""))
                ? choice.getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                        .map(t -> t.getString("name", "")).collect(Collectors.toSet())
                : Set.of(choice.getString("name", ""));
        return declared.stream().filter(t -> names.contains(t.getString("name", ""))).toList();
    }

    /**
     * How a model is to choose among the allowed tools, in Open Responses form — {@code "auto"},
     * {@code "required"} or {@code {"type":"function","name":…}}; empty for {@code "none"}: no tool
     * may be offered at all.
     */
    public Optional<JsonValue> modelToolChoice() {
        if (toolChoice instanceof JsonString choice) {
            return switch (choice.getString()) {
                case "none" -> Optional.empty();
                case "required" -> Optional.of(choice);
                default -> Optional.of(AUTO);
            };
        }
        if (toolChoice instanceof JsonObject choice) {
            if ("function".equals(choice.getString("type", ""))) {
                return Optional.of(Jsons.createObjectBuilder().add("type", "function").add("name", choice.getString("name", ""))
                        .build());
            }
            if ("required".equals(choice.getString("mode", ""))) {
                return Optional.of(Jsons.createValue("required"));
            }
        }
        return Optional.of(AUTO);
    }

    /** The names of the tools the tool choice lets the model call. */
    public Set<String> allowedToolNames() {
        return allowedTools().stream().map(t -> t.getString("name", "")).collect(Collectors.toSet());
    }

    /**
     * The tools a model server is offered for this call: the client's allowed ones, then the
     * server's own ({@code serverTools}) that no tool the client declared shadows by name; none
     * at all for {@code tool_choice: "none"}.
     */
    public JsonArray offeredTools(JsonArray serverTools) {
        JsonArrayBuilder offered = Jsons.createArrayBuilder();
        if (modelToolChoice().isEmpty()) {
            return offered.build();
        }
        allowedTools().forEach(offered::add);
        Set<String> declared = tools.getValuesAs(JsonObject.class).stream().map(t -> t.getString("name", ""))
                .collect(Collectors.toSet());
        serverTools.getValuesAs(JsonObject.class).stream().filter(t -> !declared.contains(t.getString("name", "")))
                .forEach(offered::add);
        return offered.build();
    }

    /** The last input item, or null when there is none. */
    public JsonObject lastInput() {
        return input.isEmpty() ? null : input.get(input.size() - 1);
    }

    /** A message's text: a string content, or its text parts joined. */
    public static String text(JsonObject message) {
        JsonValue content = message.get("content");
        if (content instanceof JsonString s) {
            return s.getString();
        }
        StringBuilder text = new StringBuilder();
        if (content instanceof JsonArray parts) {
            for (JsonValue part : parts) {
                if (part instanceof JsonObject p && p.get("text") instanceof JsonString t) {
                    text.append(t.getString());
                }
            }
        }
        return text.toString();
    }
}
