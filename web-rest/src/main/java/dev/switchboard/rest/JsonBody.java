package dev.switchboard.rest;

import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.core.input.InvalidJsonException;
import dev.switchboard.core.input.StorableText;
import dev.switchboard.core.input.StrictJson;
import jakarta.json.JsonValue;
import jakarta.ws.rs.core.MediaType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body under a size limit and parses it by content type, with jagc's framework
 * error codes: {@code payload_too_large} (413), {@code unsupported_media_type} (415),
 * {@code empty_json_body}, {@code invalid_json_body} and {@code invalid_text} (400), the JSON read
 * strictly ({@link StrictJson}: valid UTF-8, one value, bounded nesting) and every string storable.
 */
public final class JsonBody {

    /** What the body turned out to be; {@code value} is null when there was no body at all. */
    public record Parsed(JsonValue value, String plainText) {
        public boolean absent() {
            return value == null && plainText == null;
        }
    }

    private JsonBody() {
    }

    public static Parsed read(MediaType contentType, InputStream in, long limit) {
        byte[] bytes = readLimited(in, limit);
        if (contentType == null) {
            if (bytes.length == 0) {
                return new Parsed(null, null);
            }
            throw new ApiException(415, "unsupported_media_type", "a body needs Content-Type: application/json");
        }
        if (isJson(contentType)) {
            try {
                return new Parsed(json(StrictJson.utf8(bytes)), null);
            } catch (InvalidJsonException e) {
                throw new ApiException(400, "invalid_json_body", "body is not valid JSON: " + e.getMessage());
            }
        }
        if (contentType.isCompatible(MediaType.TEXT_PLAIN_TYPE)) {
            String text;
            try {
                text = StrictJson.utf8(bytes);
            } catch (InvalidJsonException e) {
                throw new ApiException(400, "invalid_body", e.getMessage());
            }
            StorableText.problem(text).ifPresent(problem -> {
                throw invalidText("the body " + problem);
            });
            return new Parsed(null, text);
        }
        throw new ApiException(415, "unsupported_media_type",
                "unsupported content type: " + contentType.getType() + "/" + contentType.getSubtype());
    }

    /**
     * One JSON document as every door takes it (an HTTP body, a WebSocket message): strict JSON
     * (one value, bounded depth and numbers, nothing after it) whose strings can all be stored.
     * {@code 400 empty_json_body}, {@code invalid_json_body} or {@code invalid_text} otherwise.
     */
    public static JsonValue json(String text) {
        if (text.isBlank()) {
            throw new ApiException(400, "empty_json_body", "body cannot be empty when content-type is set to 'application/json'");
        }
        JsonValue value;
        try {
            value = StrictJson.parse(text);
        } catch (InvalidJsonException e) {
            throw new ApiException(400, "invalid_json_body", "body is not valid JSON: " + e.getMessage());
        }
        StorableText.firstProblem(value, "").ifPresent(problem -> {
            throw invalidText(problem);
        });
        return value;
    }

    /** A {@code Content-Type} header value; {@code 415 unsupported_media_type} when it does not parse. */
    public static MediaType mediaType(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        try {
            return MediaType.valueOf(header.strip());
        } catch (RuntimeException e) {
            throw new ApiException(415, "unsupported_media_type", "Content-Type is not a media type");
        }
    }

    private static boolean isJson(MediaType type) {
        return "application".equalsIgnoreCase(type.getType())
                && ("json".equalsIgnoreCase(type.getSubtype()) || type.getSubtype().toLowerCase().endsWith("+json"));
    }

    /** The body, failing with 413 above {@code limit} bytes and 400 when it cannot be read. */
    public static byte[] readLimited(InputStream in, long limit) {
        if (in == null) {
            return new byte[0];
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            long total = 0;
            int n;
            while ((n = in.read(buffer)) != -1) {
                total += n;
                if (total > limit) {
                    throw new ApiException(413, "payload_too_large", "body is larger than " + limit + " bytes");
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new ApiException(400, "invalid_body", "the request body could not be read");
        }
    }

    /** {@code 400 invalid_text}: a string PostgreSQL cannot store (NUL, an unpaired surrogate). */
    public static ApiException invalidText(String problem) {
        return new ApiException(400, "invalid_text", problem);
    }

    /** A path, query or header value, refused with {@code 400 invalid_text} when it cannot be stored. */
    public static String storable(String value, String name) {
        StorableText.problem(value).ifPresent(problem -> {
            throw invalidText(name + " " + problem);
        });
        return value;
    }
}
