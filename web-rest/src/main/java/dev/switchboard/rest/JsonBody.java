package dev.switchboard.rest;

import dev.switchboard.rest.errors.ApiException;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import jakarta.ws.rs.core.MediaType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a request body under a size limit and parses it by content type, with jagc's framework
 * error codes: {@code payload_too_large} (413), {@code unsupported_media_type} (415),
 * {@code empty_json_body} and {@code invalid_json_body} (400).
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
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (isJson(contentType)) {
            if (text.isBlank()) {
                throw new ApiException(400, "empty_json_body",
                        "body cannot be empty when content-type is set to 'application/json'");
            }
            try (JsonReader reader = Json.createReader(new StringReader(text))) {
                return new Parsed(reader.readValue(), null);
            } catch (JsonParsingException | IllegalStateException e) {
                throw new ApiException(400, "invalid_json_body", "body is not valid JSON: " + brief(e.getMessage()));
            }
        }
        if (contentType.isCompatible(MediaType.TEXT_PLAIN_TYPE)) {
            return new Parsed(null, text);
        }
        throw new ApiException(415, "unsupported_media_type",
                "unsupported content type: " + contentType.getType() + "/" + contentType.getSubtype());
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

    private static String brief(String message) {
        if (message == null) {
            return "parse error";
        }
        return message.length() > 200 ? message.substring(0, 200) : message;
    }
}
