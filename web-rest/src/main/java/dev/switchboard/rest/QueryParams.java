package dev.switchboard.rest;

import dev.switchboard.rest.errors.ApiException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Query-parameter parsing with the envelope's errors: {@code 400 invalid_<name>}. */
public final class QueryParams {

    private QueryParams() {
    }

    /** A whole number within [min, max], or {@code fallback} when the parameter is absent. */
    public static long bounded(String value, long fallback, long min, long max, String name) {
        if (value == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ApiException(400, "invalid_" + name, name + " must be a whole number from " + min + " to " + max);
    }

    /**
     * The values of {@code name} in the raw query string, decoded strictly ({@code +} is a space):
     * a malformed escape ({@code %zz}) or escaped bytes that are not UTF-8 are
     * {@code 400 invalid_query}, never a replacement character or a value silently dropped.
     */
    public static List<String> values(String rawQuery, String name) {
        List<String> values = new ArrayList<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return values;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (key.equals(name)) {
                values.add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return values;
    }

    private static String decode(String raw) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || Character.digit(raw.charAt(i + 1), 16) < 0
                        || Character.digit(raw.charAt(i + 2), 16) < 0) {
                    throw invalidQuery();
                }
                bytes.write(Character.digit(raw.charAt(i + 1), 16) * 16 + Character.digit(raw.charAt(i + 2), 16));
                i += 2;
            } else if (c == '+') {
                bytes.write(' ');
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw invalidQuery();
        }
    }

    private static ApiException invalidQuery() {
        return new ApiException(400, "invalid_query", "the query string is not valid percent-encoded UTF-8");
    }
}
