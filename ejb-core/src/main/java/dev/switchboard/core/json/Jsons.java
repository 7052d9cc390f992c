package dev.switchboard.core.json;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParserFactory;
import java.io.Reader;
import java.io.StringReader;
import java.util.Map;

/**
 * {@link jakarta.json.Json}'s factory methods over a provider looked up once.
 *
 * <p>Each static method of {@code jakarta.json.Json} looks the provider up again: on Liberty a
 * failing {@code Class.forName} and a {@code ServiceLoader} scan through the OSGi class loaders,
 * 9–12 % of the server's CPU per run in a profile of the echo benchmark. The provider is
 * thread-safe, so one instance serves every caller.
 */
public final class Jsons {

    private static final JsonProvider PROVIDER = JsonProvider.provider();

    private Jsons() {
    }

    public static JsonObjectBuilder createObjectBuilder() {
        return PROVIDER.createObjectBuilder();
    }

    public static JsonObjectBuilder createObjectBuilder(JsonObject object) {
        return PROVIDER.createObjectBuilder(object);
    }

    public static JsonArrayBuilder createArrayBuilder() {
        return PROVIDER.createArrayBuilder();
    }

    public static JsonReader createReader(Reader reader) {
        return PROVIDER.createReader(reader);
    }

    /**
     * The JSON object {@code json} holds.
     *
     * @throws jakarta.json.JsonException when it is not JSON
     * @throws ClassCastException when it is JSON but not an object
     */
    public static JsonObject readObject(String json) {
        try (JsonReader reader = PROVIDER.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    /** The JSON object {@code json} holds; null when it holds none (null, not JSON, or not an object). */
    public static JsonObject readObjectOrNull(String json) {
        if (json == null) {
            return null;
        }
        try {
            return readObject(json);
        } catch (RuntimeException e) {
            return null;
        }
    }

    public static JsonString createValue(String value) {
        return PROVIDER.createValue(value);
    }

    public static JsonNumber createValue(long value) {
        return PROVIDER.createValue(value);
    }

    public static JsonParserFactory createParserFactory(Map<String, ?> config) {
        return PROVIDER.createParserFactory(config);
    }
}
