package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.Set;

/**
 * A create body's options that are objects or lists ({@link ResponseRequest}): {@code text} (its
 * format), {@code reasoning}, {@code metadata} and {@code include}, each checked and, where a
 * response echoes it, given its default.
 */
final class RequestOptions {

    private static final Set<String> INCLUDABLE = Set.of("reasoning.encrypted_content", "message.output_text.logprobs");

    private RequestOptions() {
    }

    static JsonObject text(JsonValue text) {
        if (!RequestFields.present(text)) {
            return Jsons.createObjectBuilder().add("format", Jsons.createObjectBuilder().add("type", "text")).build();
        }
        if (!(text instanceof JsonObject object)) {
            throw ResponseError.invalid("text", "text must be an object");
        }
        JsonObjectBuilder normalised = Jsons.createObjectBuilder(object);
        JsonValue format = object.get("format");
        if (!RequestFields.present(format)) {
            normalised.add("format", Jsons.createObjectBuilder().add("type", "text"));
        } else if (!(format instanceof JsonObject f)
                || !Set.of("text", "json_schema", "json_object").contains(f.getString("type", ""))) {
            throw ResponseError.invalid("text.format.type", "text.format.type must be text, json_schema or json_object");
        }
        RequestFields.oneOf(object, "verbosity", Set.of("low", "medium", "high"), "medium");
        return normalised.build();
    }

    static JsonValue reasoning(JsonValue reasoning) {
        if (!RequestFields.present(reasoning)) {
            return JsonValue.NULL;
        }
        if (!(reasoning instanceof JsonObject object)) {
            throw ResponseError.invalid("reasoning", "reasoning must be an object");
        }
        JsonObjectBuilder r = Jsons.createObjectBuilder();
        r.add("effort", RequestFields.present(object.get("effort"))
                ? Jsons.createValue(RequestFields.oneOf(object, "effort",
                        Set.of("none", "minimal", "low", "medium", "high", "xhigh"), ""))
                : JsonValue.NULL);
        r.add("summary", RequestFields.present(object.get("summary"))
                ? Jsons.createValue(RequestFields.oneOf(object, "summary", Set.of("concise", "detailed", "auto"), ""))
                : JsonValue.NULL);
        return r.build();
    }

    static JsonObject metadata(JsonValue metadata) {
        if (!RequestFields.present(metadata)) {
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

    static void include(JsonValue include) {
        if (!RequestFields.present(include)) {
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
}
