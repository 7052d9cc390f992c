package dev.switchboard.core.input;

import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.Optional;

/**
 * Text PostgreSQL can store: no U+0000 (a {@code text} column cannot hold it) and no unpaired
 * surrogate (it has no UTF-8 encoding; Java would silently store {@code ?} instead). Checked at
 * every door, so such input is refused with a clear error instead of failing a statement.
 */
public final class StorableText {

    private StorableText() {
    }

    /** Why {@code text} cannot be stored, or empty when it can (null is storable: it is absent). */
    public static Optional<String> problem(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return Optional.of("contains U+0000 (NUL), which cannot be stored");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of("contains an unpaired surrogate (U+" + Integer.toHexString(c).toUpperCase()
                        + "), which is not Unicode text");
            }
        }
        return Optional.empty();
    }

    /**
     * The first string (member name or value) in {@code value} that cannot be stored, as
     * {@code "<path> <problem>"} with a path like {@code params.input[0].text}; empty when all can.
     */
    public static Optional<String> firstProblem(JsonValue value, String path) {
        if (value == null) {
            return Optional.empty();
        }
        switch (value.getValueType()) {
            case STRING -> {
                return problem(((JsonString) value).getString()).map(p -> path + " " + p);
            }
            case OBJECT -> {
                for (Map.Entry<String, JsonValue> member : value.asJsonObject().entrySet()) {
                    String memberPath = path.isEmpty() ? member.getKey() : path + "." + member.getKey();
                    Optional<String> name = problem(member.getKey()).map(p -> "a member name in "
                            + (path.isEmpty() ? "the body" : path) + " " + p);
                    if (name.isPresent()) {
                        return name;
                    }
                    Optional<String> inner = firstProblem(member.getValue(), memberPath);
                    if (inner.isPresent()) {
                        return inner;
                    }
                }
                return Optional.empty();
            }
            case ARRAY -> {
                int i = 0;
                for (JsonValue element : value.asJsonArray()) {
                    Optional<String> inner = firstProblem(element, path + "[" + i++ + "]");
                    if (inner.isPresent()) {
                        return inner;
                    }
                }
                return Optional.empty();
            }
            default -> {
                return Optional.empty();
            }
        }
    }
}
