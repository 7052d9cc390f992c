package dev.switchboard.core.conversation;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A tool call's parameters as people, streams, logs and the database see them (spec §8.5, issue
 * 35): the values of sensitive names replaced by {@code "[REDACTED]"} at any depth. Only the tool
 * itself is given the raw parameters.
 *
 * <p>A name is sensitive when the tool declares it so, or when it holds one of the configured
 * sensitive names ({@code switchboard.sensitive-names}) as a whole word: names are compared in
 * lower case with {@code -}, spaces and camelCase humps read as {@code _}, so with {@code token}
 * configured {@code token}, {@code github_token}, {@code X-Token} and {@code refreshToken} are
 * sensitive, {@code tokens} and {@code tokenizer} are not.
 */
public final class Redaction {

    public static final String REDACTED = "[REDACTED]";

    // before DEFAULT: building it reads them
    private static final Pattern CAMEL_HUMP = Pattern.compile("([a-z0-9])([A-Z])");
    private static final Pattern SEPARATORS = Pattern.compile("[^a-z0-9]+");
    private static final Pattern EDGE_SEPARATORS = Pattern.compile("^_|_$");

    /** The names that are sensitive unless configured otherwise. */
    public static final List<String> DEFAULT_NAMES = List.of("password", "passwd", "passphrase", "secret", "token",
            "api_key", "apikey", "access_key", "private_key", "authorization", "credential", "credentials", "cookie",
            "session_key");

    /** The default names. */
    public static final Redaction DEFAULT = new Redaction(DEFAULT_NAMES);

    private final Set<String> names;

    public Redaction(Collection<String> names) {
        this.names = names.stream().map(Redaction::words).filter(n -> !n.isEmpty()).collect(Collectors.toUnmodifiableSet());
    }

    /** The names of a comma-separated list (blank entries ignored). */
    public static Redaction of(String commaSeparated) {
        return new Redaction(Arrays.asList(commaSeparated.split(",")));
    }

    /** The values of sensitive names (and of {@code toolSensitiveKeys}) replaced, at any depth. */
    public JsonObject parameters(JsonObject parameters, Set<String> toolSensitiveKeys) {
        JsonObjectBuilder shown = Jsons.createObjectBuilder();
        for (Map.Entry<String, JsonValue> e : parameters.entrySet()) {
            shown.add(e.getKey(), isSensitive(e.getKey(), toolSensitiveKeys) ? Jsons.createValue(REDACTED)
                    : redacted(e.getValue(), toolSensitiveKeys));
        }
        return shown.build();
    }

    /**
     * An Open Responses {@code function_call} item with the sensitive values of its
     * {@code arguments} (a JSON text) replaced; the item itself when nothing in it is sensitive or
     * its arguments are not a JSON object.
     */
    public JsonObject call(JsonObject functionCall) {
        JsonObject arguments;
        try (JsonReader reader = Jsons.createReader(new StringReader(functionCall.getString("arguments", "")))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                return functionCall;
            }
            arguments = value.asJsonObject();
        } catch (RuntimeException notJson) {
            return functionCall;
        }
        JsonObject shown = parameters(arguments, Set.of());
        if (shown.equals(arguments)) {
            return functionCall;
        }
        return Jsons.createObjectBuilder(functionCall).add("arguments", shown.toString()).build();
    }

    boolean isSensitive(String key, Set<String> toolSensitiveKeys) {
        if (toolSensitiveKeys.contains(key)) {
            return true;
        }
        String padded = "_" + words(key) + "_";
        return names.stream().anyMatch(name -> padded.contains("_" + name + "_"));
    }

    /** {@code apiKey}, {@code Api-Key} and {@code api key} all read {@code api_key}. */
    private static String words(String name) {
        String humps = CAMEL_HUMP.matcher(name.strip()).replaceAll("$1_$2").toLowerCase(Locale.ROOT);
        return EDGE_SEPARATORS.matcher(SEPARATORS.matcher(humps).replaceAll("_")).replaceAll("");
    }

    private JsonValue redacted(JsonValue value, Set<String> toolSensitiveKeys) {
        if (value instanceof JsonObject object) {
            return parameters(object, toolSensitiveKeys);
        }
        if (value instanceof JsonArray array) {
            JsonArrayBuilder shown = Jsons.createArrayBuilder();
            array.forEach(v -> shown.add(redacted(v, toolSensitiveKeys)));
            return shown.build();
        }
        return value;
    }
}
