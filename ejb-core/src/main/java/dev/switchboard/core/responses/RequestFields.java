package dev.switchboard.core.responses;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Optional;
import java.util.Set;

/**
 * A create body's fields read one at a time ({@link ResponseRequest}): absent and {@code null} are
 * the same; a field of the wrong type, or out of its range, throws a {@link ResponseError} naming
 * it by its path ({@code input[2].content}).
 */
final class RequestFields {

    private RequestFields() {
    }

    static boolean present(JsonValue value) {
        return value != null && value.getValueType() != JsonValue.ValueType.NULL;
    }

    static Optional<String> nullableString(JsonObject object, String key) {
        return nullableString(object, key, key);
    }

    static Optional<String> nullableString(JsonObject object, String key, String path) {
        JsonValue value = object.get(key);
        if (!present(value)) {
            return Optional.empty();
        }
        if (!(value instanceof JsonString s)) {
            throw ResponseError.invalid(path, path + " must be a string");
        }
        return Optional.of(s.getString());
    }

    static String requiredString(JsonObject object, String key, String path) {
        return nullableString(object, key, path + "." + key)
                .orElseThrow(() -> ResponseError.invalid(path + "." + key, path + "." + key + " is required"));
    }

    static String oneOf(JsonObject object, String key, Set<String> values, String fallback) {
        Optional<String> value = nullableString(object, key);
        if (value.isPresent() && !values.contains(value.get())) {
            throw ResponseError.invalid(key, key + " must be one of " + new java.util.TreeSet<>(values));
        }
        return value.orElse(fallback);
    }

    static boolean bool(JsonObject object, String key, boolean fallback) {
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

    static double number(JsonObject object, String key, double fallback, double min, double max) {
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

    static Optional<Integer> integer(JsonObject object, String key, int min, int max) {
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
