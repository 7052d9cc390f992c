package dev.switchboard.core.turn;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.Lifecycle;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Validated, normalised turn input: Holon's {@code input} array of messages with text parts.
 * Validation follows Holon's order and field paths; normalisation defaults the role to
 * {@code user}, rewrites part types to {@code input_text} and trims the text.
 */
public final class TurnInput {

    private final List<JsonObject> messages;

    private TurnInput(List<JsonObject> messages) {
        this.messages = List.copyOf(messages);
    }

    public static TurnInput of(List<JsonObject> messages) {
        return new TurnInput(messages);
    }

    /** Validates {@code input} (may be null); throws {@link InvalidInputException} at the first failure. */
    public static TurnInput parse(JsonValue input) {
        if (input == null || input.getValueType() == JsonValue.ValueType.NULL) {
            throw new InvalidInputException("input", "input is required");
        }
        if (input.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new IllegalArgumentException("input must be an array");
        }
        JsonArray items = input.asJsonArray();
        if (items.isEmpty()) {
            throw new InvalidInputException("input", "input is required");
        }
        List<JsonObject> normalised = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).getValueType() != JsonValue.ValueType.OBJECT) {
                throw new IllegalArgumentException("input[" + i + "] must be an object");
            }
            normalised.add(message(items.getJsonObject(i), "input[" + i + "]"));
        }
        return new TurnInput(normalised);
    }

    private static JsonObject message(JsonObject item, String path) {
        String type = string(item, "type", path);
        if (!type.isEmpty() && !type.equals("message")) {
            throw new InvalidInputException(path + ".type", path + ".type must be 'message'");
        }
        String role = string(item, "role", path);
        JsonValue content = item.get("content");
        if (content != null && content.getValueType() != JsonValue.ValueType.NULL
                && content.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new IllegalArgumentException(path + ".content must be an array");
        }
        if (content == null || content.getValueType() == JsonValue.ValueType.NULL || content.asJsonArray().isEmpty()) {
            throw new InvalidInputException(path + ".content", path + ".content is required");
        }
        JsonArray parts = content.asJsonArray();
        JsonArrayBuilder normalisedParts = Jsons.createArrayBuilder();
        for (int j = 0; j < parts.size(); j++) {
            String partPath = path + ".content[" + j + "]";
            if (parts.get(j).getValueType() != JsonValue.ValueType.OBJECT) {
                throw new IllegalArgumentException(partPath + " must be an object");
            }
            JsonObject part = parts.getJsonObject(j);
            String partType = string(part, "type", partPath);
            if (!partType.isEmpty() && !partType.equals("input_text") && !partType.equals("text")) {
                throw new InvalidInputException(partPath + ".type", partPath + ".type must be 'input_text' or 'text'");
            }
            String text = string(part, "text", partPath).strip();
            if (text.isEmpty()) {
                throw new InvalidInputException(partPath + ".text", partPath + ".text is required");
            }
            normalisedParts.add(Jsons.createObjectBuilder().add("type", "input_text").add("text", text));
        }
        return Jsons.createObjectBuilder()
                .add("type", "message")
                .add("role", role.isEmpty() ? "user" : role)
                .add("content", normalisedParts)
                .build();
    }

    private static String string(JsonObject object, String name, String path) {
        JsonValue value = object.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return "";
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new IllegalArgumentException(path + "." + name + " must be a string");
        }
        return ((JsonString) value).getString();
    }

    /** Reads input stored by {@link #toJson}. */
    public static TurnInput fromJson(JsonArray stored) {
        return new TurnInput(stored.getValuesAs(JsonObject.class));
    }

    public List<JsonObject> messages() {
        return messages;
    }

    public int size() {
        return messages.size();
    }

    /** This input followed by {@code later}'s. */
    public TurnInput then(TurnInput later) {
        List<JsonObject> all = new ArrayList<>(messages);
        all.addAll(later.messages);
        return new TurnInput(all);
    }

    public JsonArray toJson() {
        JsonArrayBuilder b = Jsons.createArrayBuilder();
        messages.forEach(b::add);
        return b.build();
    }

    /** What the engine reads: the text parts, one per line. */
    public String text() {
        return messages.stream()
                .flatMap(m -> m.getJsonArray("content").getValuesAs(JsonObject.class).stream())
                .map(p -> p.getString("text"))
                .collect(Collectors.joining("\n"));
    }

    /** A run's input as stored: its structured items ({@code inputJson}), or else its plain text. */
    public static TurnInput stored(String inputJson, String inputText) {
        if (inputJson == null) {
            return ofText(inputText);
        }
        try (JsonReader reader = Jsons.createReader(new StringReader(inputJson))) {
            return fromJson(reader.readArray());
        }
    }

    /** Plain text as a one-message input (runs posted to {@code /v1/messages}). */
    public static TurnInput ofText(String text) {
        return new TurnInput(List.of(Lifecycle.userMessage(text)));
    }
}
