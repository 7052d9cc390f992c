package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A create body's {@code tools} and {@code tool_choice} ({@link ResponseRequest}): function tools
 * only, each named once, echoed with {@code description}, {@code parameters} and {@code strict}
 * present; a choice may name only a declared tool.
 */
final class RequestTools {

    /** A function's name, as a tool's declaration and a {@code function_call} item must give it. */
    static final Pattern TOOL_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    private RequestTools() {
    }

    /** The declared tools, normalised: none when {@code tools} is absent. */
    static JsonArray tools(JsonValue tools) {
        JsonArrayBuilder normalised = Jsons.createArrayBuilder();
        if (!RequestFields.present(tools)) {
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
            if (!"function".equals(RequestFields.requiredString(tool, "type", path))) {
                throw ResponseError.invalid(path + ".type", path + ".type must be 'function' (the only tool type served)");
            }
            String name = RequestFields.requiredString(tool, "name", path);
            if (!TOOL_NAME.matcher(name).matches()) {
                throw ResponseError.invalid(path + ".name", path + ".name must match ^[a-zA-Z0-9_-]{1,64}$");
            }
            if (!names.add(name)) {
                throw ResponseError.invalid(path + ".name", "tool " + name + " is declared twice");
            }
            JsonObjectBuilder t = Jsons.createObjectBuilder().add("type", "function").add("name", name);
            RequestFields.nullableString(tool, "description", path + ".description")
                    .ifPresentOrElse(d -> t.add("description", d), () -> t.addNull("description"));
            JsonValue parameters = tool.get("parameters");
            if (RequestFields.present(parameters) && !(parameters instanceof JsonObject)) {
                throw ResponseError.invalid(path + ".parameters", path + ".parameters must be a JSON schema object");
            }
            t.add("parameters", RequestFields.present(parameters) ? parameters : JsonValue.NULL);
            JsonValue strict = tool.get("strict");
            if (RequestFields.present(strict) && strict.getValueType() != JsonValue.ValueType.TRUE
                    && strict.getValueType() != JsonValue.ValueType.FALSE) {
                throw ResponseError.invalid(path + ".strict", path + ".strict must be a boolean");
            }
            t.add("strict", RequestFields.present(strict) ? strict : JsonValue.NULL);
            normalised.add(t);
        }
        return normalised.build();
    }

    /** The tool choice, checked against the declared {@code tools}: {@code auto} when absent. */
    static JsonValue toolChoice(JsonValue choice, JsonArray tools) {
        if (!RequestFields.present(choice)) {
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
        String type = RequestFields.requiredString(object, "type", "tool_choice");
        if ("function".equals(type)) {
            String name = RequestFields.requiredString(object, "name", "tool_choice");
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
                String name = RequestFields.requiredString(tool, "name", path);
                if (!declared.contains(name)) {
                    throw ResponseError.invalid(path + ".name", path + " names " + name + ", which is not among the tools");
                }
                names.add(Jsons.createObjectBuilder().add("type", "function").add("name", name));
            }
            return Jsons.createObjectBuilder().add("type", "allowed_tools")
                    .add("mode", RequestFields.oneOf(object, "mode", Set.of("auto", "required"), "auto"))
                    .add("tools", names).build();
        }
        throw ResponseError.invalid("tool_choice.type", "tool_choice.type must be function or allowed_tools"
                + " (hosted tools are not served)");
    }
}
