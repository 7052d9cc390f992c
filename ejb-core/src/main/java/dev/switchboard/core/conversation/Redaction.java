package dev.switchboard.core.conversation;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The parameters of a tool call as people see them in an approval request (spec §8.5): the values
 * of sensitive keys replaced by {@code "[REDACTED]"} at any depth. A key is sensitive when the tool
 * declares it so, or when its name is one that always holds a secret. Execution uses the raw
 * parameters; only prompts, events and history show these.
 */
public final class Redaction {

    public static final String REDACTED = "[REDACTED]";

    /** Names whose values are secrets whatever the tool (compared in lower case, {@code -} as {@code _}). */
    public static final Set<String> ALWAYS_SENSITIVE = Set.of("password", "passwd", "secret", "token", "api_key", "apikey",
            "access_token", "refresh_token", "client_secret", "private_key", "authorization", "credentials");

    private Redaction() {
    }

    public static JsonObject displayParameters(JsonObject parameters, Set<String> toolSensitiveKeys) {
        JsonObjectBuilder shown = Jsons.createObjectBuilder();
        for (Map.Entry<String, JsonValue> e : parameters.entrySet()) {
            shown.add(e.getKey(), isSensitive(e.getKey(), toolSensitiveKeys) ? Jsons.createValue(REDACTED)
                    : redacted(e.getValue(), toolSensitiveKeys));
        }
        return shown.build();
    }

    static boolean isSensitive(String key, Set<String> toolSensitiveKeys) {
        return toolSensitiveKeys.contains(key) || ALWAYS_SENSITIVE.contains(key.toLowerCase(Locale.ROOT).replace('-', '_'));
    }

    private static JsonValue redacted(JsonValue value, Set<String> toolSensitiveKeys) {
        if (value instanceof JsonObject object) {
            return displayParameters(object, toolSensitiveKeys);
        }
        if (value instanceof JsonArray array) {
            JsonArrayBuilder shown = Jsons.createArrayBuilder();
            array.forEach(v -> shown.add(redacted(v, toolSensitiveKeys)));
            return shown.build();
        }
        return value;
    }
}
