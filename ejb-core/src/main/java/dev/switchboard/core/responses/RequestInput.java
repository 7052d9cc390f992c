package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A create body's {@code input} as items ({@link ResponseRequest}): a string is one user message; a
 * message without {@code type} but with a {@code role} is accepted; string content becomes one
 * text part. Each item must be one the specification lets a request send (message, function call
 * and its output, reasoning, compaction), its parts the ones its role may have.
 */
final class RequestInput {

    private RequestInput() {
    }

    /** The items {@code input} holds: none when it is absent or an empty string. */
    static List<JsonObject> items(JsonValue input) {
        if (!RequestFields.present(input)) {
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
        String type = RequestFields.nullableString(item, "type", path + ".type")
                .orElse(item.containsKey("role") ? "message" : "");
        switch (type) {
            case "message" -> {
                String role = RequestFields.requiredString(item, "role", path);
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
                String callId = RequestFields.requiredString(item, "call_id", path);
                if (callId.isEmpty() || callId.length() > 64) {
                    throw ResponseError.invalid(path + ".call_id", path + ".call_id must be 1 to 64 characters");
                }
                if (!RequestTools.TOOL_NAME.matcher(RequestFields.requiredString(item, "name", path)).matches()) {
                    throw ResponseError.invalid(path + ".name", path + ".name must match ^[a-zA-Z0-9_-]{1,64}$");
                }
                RequestFields.requiredString(item, "arguments", path);
                return item;
            }
            case "function_call_output" -> {
                RequestFields.requiredString(item, "call_id", path);
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
                RequestFields.requiredString(item, "encrypted_content", path);
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
            String type = RequestFields.requiredString(part, "type", partPath);
            if (!allowed.contains(type)) {
                throw ResponseError.invalid(partPath + ".type", partPath + ".type must be one of " + new java.util.TreeSet<>(allowed)
                        + " in a " + role + " message");
            }
            switch (type) {
                case "input_text", "output_text" -> RequestFields.requiredString(part, "text", partPath);
                case "refusal" -> RequestFields.requiredString(part, "refusal", partPath);
                case "input_image" -> {
                    if (RequestFields.nullableString(part, "image_url", partPath + ".image_url").isEmpty()
                            && RequestFields.nullableString(part, "file_id", partPath + ".file_id").isEmpty()) {
                        throw ResponseError.invalid(partPath + ".image_url", partPath + ".image_url is required");
                    }
                    RequestFields.nullableString(part, "detail", partPath + ".detail").ifPresent(d -> {
                        if (!Set.of("low", "high", "auto").contains(d)) {
                            throw ResponseError.invalid(partPath + ".detail", partPath + ".detail must be low, high or auto");
                        }
                    });
                }
                default -> { // input_file: one of its sources
                    if (RequestFields.nullableString(part, "file_data", partPath + ".file_data").isEmpty()
                            && RequestFields.nullableString(part, "file_url", partPath + ".file_url").isEmpty()
                            && RequestFields.nullableString(part, "file_id", partPath + ".file_id").isEmpty()) {
                        throw ResponseError.invalid(partPath, partPath + " needs file_data, file_url or file_id");
                    }
                }
            }
        }
        return parts;
    }
}
