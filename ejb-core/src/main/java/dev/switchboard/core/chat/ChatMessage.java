package dev.switchboard.core.chat;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A chat message as a door receives it, checked: {@code content} (not blank, at most
 * {@value #MAX_CONTENT} characters), {@code channel} (default {@code web}; lower-case letters,
 * digits, {@code _ . -}, at most 64) and {@code thread_id} (the channel's own thread id, at most
 * {@value #MAX_THREAD_ID} characters; absent or null: none, which is not the same thread as an
 * empty one).
 */
public record ChatMessage(String content, String channel, Optional<String> threadId) {

    public static final int MAX_CONTENT = 32_768;
    public static final int MAX_THREAD_ID = 256;
    public static final String DEFAULT_CHANNEL = "web";
    private static final Pattern CHANNEL = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,63}");

    /** A member that is not as it must be; {@code field} names it. */
    public static class InvalidException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final String field;

        public InvalidException(String field, String message) {
            super(field + ": " + message);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /** @throws InvalidException naming the first member that is not valid */
    public static ChatMessage of(JsonObject json) {
        JsonValue content = json.get("content");
        if (!(content instanceof JsonString text) || text.getString().isBlank()) {
            throw new InvalidException("content", "content is required: a non-empty string");
        }
        if (text.getString().length() > MAX_CONTENT) {
            throw new InvalidException("content", "content is longer than " + MAX_CONTENT + " characters");
        }
        return new ChatMessage(text.getString(), channel(json), threadId(json));
    }

    /** The {@code channel} member (default {@code web}). */
    public static String channel(JsonObject json) {
        JsonValue channel = json.get("channel");
        if (channel == null || channel.getValueType() == JsonValue.ValueType.NULL) {
            return DEFAULT_CHANNEL;
        }
        if (!(channel instanceof JsonString name) || !CHANNEL.matcher(name.getString()).matches()) {
            throw new InvalidException("channel",
                    "channel must be 1 to 64 of a-z, 0-9, '_', '.', '-', starting with a letter or digit");
        }
        return name.getString();
    }

    /** The {@code token} member of an auth answer: a non-empty string (never echoed in an error). */
    public static String token(JsonObject json) {
        JsonValue token = json.get("token");
        if (!(token instanceof JsonString text) || text.getString().isBlank()) {
            throw new InvalidException("token", "token is required: a non-empty string");
        }
        return text.getString();
    }

    private static Optional<String> threadId(JsonObject json) {
        JsonValue id = json.get("thread_id");
        if (id == null || id.getValueType() == JsonValue.ValueType.NULL) {
            return Optional.empty();
        }
        if (!(id instanceof JsonString text)) {
            throw new InvalidException("thread_id", "thread_id must be a string");
        }
        if (text.getString().length() > MAX_THREAD_ID) {
            throw new InvalidException("thread_id", "thread_id is longer than " + MAX_THREAD_ID + " characters");
        }
        return Optional.of(text.getString());
    }
}
