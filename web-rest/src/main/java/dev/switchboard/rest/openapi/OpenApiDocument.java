package dev.switchboard.rest.openapi;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The API's OpenAPI document: the YAML as it is written ({@code META-INF/openapi.yaml}, which
 * {@code OpenApiDocumentTest} holds to the code) and the same as JSON, made once. Plain: unit tests
 * read both.
 */
final class OpenApiDocument {

    static final String RESOURCE = "META-INF/openapi.yaml";

    private final String yaml;
    private final String json;

    OpenApiDocument(String yaml) {
        this.yaml = yaml;
        this.json = json(new Load(LoadSettings.builder().build()).loadFromString(yaml)).toString();
    }

    static OpenApiDocument fromClassPath() {
        try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the war's classes");
            }
            return new OpenApiDocument(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String yaml() {
        return yaml;
    }

    String json() {
        return json;
    }

    /** A value YAML's core schema gives (maps, lists, strings, numbers, booleans, null) as JSON. */
    static JsonValue json(Object value) {
        if (value == null) {
            return JsonValue.NULL;
        }
        if (value instanceof Map<?, ?> map) {
            JsonObjectBuilder object = Jsons.createObjectBuilder();
            map.forEach((k, v) -> object.add(String.valueOf(k), json(v)));
            return object.build();
        }
        if (value instanceof List<?> list) {
            JsonArrayBuilder array = Jsons.createArrayBuilder();
            list.forEach(v -> array.add(json(v)));
            return array.build();
        }
        if (value instanceof Boolean b) {
            return b ? JsonValue.TRUE : JsonValue.FALSE;
        }
        if (value instanceof Integer || value instanceof Long) {
            return Jsons.createValue(((Number) value).longValue());
        }
        if (value instanceof BigInteger big) {
            return Jsons.createArrayBuilder().add(big).build().get(0);
        }
        if (value instanceof Number number) {
            return Jsons.createArrayBuilder().add(new BigDecimal(number.toString())).build().get(0);
        }
        return Jsons.createValue(String.valueOf(value));
    }
}
