package dev.switchboard.rest.messages;

import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.turn.ServerSources;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.errors.ApiException;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The validated body of {@code POST /v1/messages}. The rules are jagc's (Zod schema): optional
 * strings are trimmed and must not be empty or null, {@code text} is required and not trimmed,
 * unknown keys are ignored. Bean Validation cannot tell an absent key from a {@code null} one,
 * which jagc treats differently, so the checks are written out here.
 */
public record MessagePayload(String source, String threadKey, String userKey, String text,
        String deliveryMode, String idempotencyKey) {

    static final int MAX_SOURCE = 256;
    static final int MAX_THREAD_KEY = 512;
    static final int MAX_USER_KEY = 256;
    static final int MAX_IDEMPOTENCY_KEY = 512;
    private static final List<String> MODES = List.of("steer", "followUp");

    /** Validates a parsed body; throws 400 {@code invalid_message_payload} naming the first problem. */
    public static MessagePayload from(JsonBody.Parsed body) {
        return of(object(body), "");
    }

    /**
     * Validates the body of {@code POST /v1/messages/batch}: {@code {"messages": [...]}} with 1 to
     * {@code maxMessages} messages, each as {@link #from}; a problem is named by its path
     * ({@code messages[3].text: required}).
     */
    public static List<MessagePayload> batch(JsonBody.Parsed body, int maxMessages) {
        JsonObject o = object(body);
        if (!o.containsKey("messages")) {
            throw invalid("messages: required");
        }
        JsonValue messages = o.get("messages");
        if (messages.getValueType() != JsonValue.ValueType.ARRAY) {
            throw invalid("messages: expected array, received " + typeName(messages));
        }
        JsonArray items = messages.asJsonArray();
        if (items.isEmpty()) {
            throw invalid("messages: must contain at least 1 item");
        }
        if (items.size() > maxMessages) {
            throw invalid("messages: must contain at most " + maxMessages + " items");
        }
        List<MessagePayload> payloads = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String path = "messages[" + i + "]";
            JsonValue item = items.get(i);
            if (item.getValueType() != JsonValue.ValueType.OBJECT) {
                throw invalid(path + ": expected object, received " + typeName(item));
            }
            payloads.add(of(item.asJsonObject(), path + "."));
        }
        return payloads;
    }

    private static JsonObject object(JsonBody.Parsed body) {
        if (body.absent()) {
            throw invalid("expected object, received undefined");
        }
        if (body.plainText() != null) {
            throw invalid("expected object, received string");
        }
        JsonValue value = body.value();
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw invalid("expected object, received " + typeName(value));
        }
        return value.asJsonObject();
    }

    private static MessagePayload of(JsonObject o, String path) {
        String source = optionalTrimmed(o, path, "source", MAX_SOURCE);
        if (source != null && ServerSources.isServers(source)) {
            throw invalid(path + "source: \"" + source + "\" is reserved for the server's own runs");
        }
        String threadKey = optionalTrimmed(o, path, "thread_key", MAX_THREAD_KEY);
        String userKey = optionalTrimmed(o, path, "user_key", MAX_USER_KEY);
        String text = requiredText(o, path);
        String mode = deliveryMode(o, path);
        String key = optionalTrimmed(o, path, "idempotency_key", MAX_IDEMPOTENCY_KEY);
        return new MessagePayload(source == null ? "cli" : source, threadKey == null ? "cli:default" : threadKey,
                userKey, text, mode == null ? "followUp" : mode, key);
    }

    private static String optionalTrimmed(JsonObject o, String path, String field, int max) {
        if (!o.containsKey(field)) {
            return null;
        }
        String s = string(o, path, field).strip();
        if (s.isEmpty()) {
            throw invalid(path + field + ": must contain at least 1 character");
        }
        if (s.length() > max) {
            throw invalid(path + field + ": must contain at most " + max + " characters");
        }
        return s;
    }

    private static String requiredText(JsonObject o, String path) {
        if (!o.containsKey("text")) {
            throw invalid(path + "text: required");
        }
        String text = string(o, path, "text");
        if (text.isEmpty()) {
            throw invalid(path + "text: must contain at least 1 character");
        }
        return text;
    }

    private static String deliveryMode(JsonObject o, String path) {
        if (!o.containsKey("delivery_mode")) {
            return null;
        }
        String mode = string(o, path, "delivery_mode");
        if (!MODES.contains(mode)) {
            throw invalid(path + "delivery_mode: expected 'steer' | 'followUp', received '" + mode + "'");
        }
        return mode;
    }

    private static String string(JsonObject o, String path, String field) {
        JsonValue v = o.get(field);
        if (v.getValueType() != JsonValue.ValueType.STRING) {
            throw invalid(path + field + ": expected string, received " + typeName(v));
        }
        return ((JsonString) v).getString();
    }

    private static String typeName(JsonValue v) {
        return switch (v.getValueType()) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case NUMBER -> "number";
            case TRUE, FALSE -> "boolean";
            case NULL -> "null";
        };
    }

    private static ApiException invalid(String message) {
        return new ApiException(400, "invalid_message_payload", message);
    }

    /** The command to store this message for {@code user}, under idempotency key {@code key} (may be null). */
    public MessageCommand command(String user, String key) {
        return new MessageCommand(user, source, threadKey, userKey, text, deliveryMode, key);
    }

    /** A batch takes its keys per message: the {@code Idempotency-Key} header, which names one message, is refused. */
    public static void refuseBatchKeyHeader(List<String> headerValues) {
        if (headerValues != null && !headerValues.isEmpty()) {
            throw new ApiException(400, "invalid_idempotency_key_header",
                    "Idempotency-Key names one message; give each message of a batch its own idempotency_key");
        }
    }

    /**
     * The effective idempotency key from the body and the {@code Idempotency-Key} header values,
     * checked in jagc's order after the body: blank or repeated header, then body/header mismatch.
     */
    public String effectiveKey(List<String> headerValues) {
        String header = null;
        if (headerValues != null && !headerValues.isEmpty()) {
            if (headerValues.size() > 1) {
                throw new ApiException(400, "invalid_idempotency_key_header",
                        "Idempotency-Key must be sent at most once");
            }
            header = headerValues.get(0) == null ? "" : headerValues.get(0).strip();
            if (header.isEmpty()) {
                throw new ApiException(400, "invalid_idempotency_key_header", "Idempotency-Key must not be empty");
            }
            if (header.length() > MAX_IDEMPOTENCY_KEY) {
                throw new ApiException(400, "invalid_idempotency_key_header",
                        "Idempotency-Key must contain at most " + MAX_IDEMPOTENCY_KEY + " characters");
            }
            JsonBody.storable(header, "Idempotency-Key");
        }
        if (idempotencyKey != null && header != null && !idempotencyKey.equals(header)) {
            throw new ApiException(400, "idempotency_key_mismatch",
                    "idempotency key in request body does not match Idempotency-Key header");
        }
        return idempotencyKey != null ? idempotencyKey : header;
    }
}
