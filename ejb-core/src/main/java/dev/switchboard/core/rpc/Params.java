package dev.switchboard.core.rpc;

import dev.switchboard.core.input.StorableText;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * A method's params: an object, or absent/null (the same as {@code {}}). Members of the wrong
 * JSON type fail as undecodable params ({@code invalid params: ...}), as Holon's decoder does.
 */
public final class Params {

    private final JsonObject object;

    private Params(JsonObject object) {
        this.object = object;
    }

    public static Params of(JsonValue params) {
        if (params == null || params.getValueType() == JsonValue.ValueType.NULL) {
            return new Params(JsonValue.EMPTY_JSON_OBJECT);
        }
        if (params.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new RpcException(RpcError.undecodable("params must be an object"));
        }
        StorableText.firstProblem(params, "params").ifPresent(problem -> {
            throw new RpcException(RpcError.undecodable(problem));
        });
        return new Params(params.asJsonObject());
    }

    /** The params object itself. */
    public JsonObject object() {
        return object;
    }

    private JsonValue present(String name) {
        JsonValue value = object.get(name);
        return value == null || value.getValueType() == JsonValue.ValueType.NULL ? null : value;
    }

    /** The string member, or null when absent. */
    public String string(String name) {
        JsonValue value = present(name);
        if (value == null) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new RpcException(RpcError.undecodable(name + " must be a string"));
        }
        return ((JsonString) value).getString();
    }

    /** The string member, trimmed; null when absent or blank. */
    public String trimmed(String name) {
        String value = string(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** The integer member, or {@code fallback} when absent. */
    public long integer(String name, long fallback) {
        JsonValue value = present(name);
        if (value == null) {
            return fallback;
        }
        if (value.getValueType() != JsonValue.ValueType.NUMBER || !((JsonNumber) value).isIntegral()) {
            throw new RpcException(RpcError.undecodable(name + " must be an integer"));
        }
        try {
            return ((JsonNumber) value).longValueExact();
        } catch (ArithmeticException e) {
            throw new RpcException(RpcError.invalidField(name, name + " is out of range"));
        }
    }

    /** The boolean member, or {@code fallback} when absent. */
    public boolean bool(String name, boolean fallback) {
        JsonValue value = present(name);
        if (value == null) {
            return fallback;
        }
        if (value.getValueType() != JsonValue.ValueType.TRUE && value.getValueType() != JsonValue.ValueType.FALSE) {
            throw new RpcException(RpcError.undecodable(name + " must be a boolean"));
        }
        return value.getValueType() == JsonValue.ValueType.TRUE;
    }

    /** The integer member within [min, max], or {@code fallback} when absent; otherwise a field error. */
    public int bounded(String name, int min, int max, int fallback, String reason) {
        long value = integer(name, fallback);
        if (value < min || value > max) {
            throw new RpcException(RpcError.invalidField(name, reason));
        }
        return (int) value;
    }

    /** A list of strings, or null when absent. */
    public List<String> strings(String name) {
        JsonValue value = present(name);
        if (value == null) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new RpcException(RpcError.undecodable(name + " must be an array of strings"));
        }
        List<String> result = new ArrayList<>();
        for (JsonValue v : value.asJsonArray()) {
            if (v.getValueType() != JsonValue.ValueType.STRING) {
                throw new RpcException(RpcError.undecodable(name + " must be an array of strings"));
            }
            result.add(((JsonString) v).getString());
        }
        return result;
    }

    /** The raw member, or null when absent. */
    public JsonValue raw(String name) {
        return present(name);
    }
}
