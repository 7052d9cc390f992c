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

    /** The raw text's bytes as UTF-8, with each {@code %XX} replaced by its byte and {@code +} by a space, decoded strictly. */
    private static String decode(String raw) {
        byte[] in = raw.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(in.length);
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '%') {
                int high = i + 2 < in.length ? Character.digit(in[i + 1], 16) : -1;
                int low = i + 2 < in.length ? Character.digit(in[i + 2], 16) : -1;
                if (high < 0 || low < 0) {
                    throw invalidQuery();
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else {
                bytes.write(in[i] == '+' ? ' ' : in[i]);
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
