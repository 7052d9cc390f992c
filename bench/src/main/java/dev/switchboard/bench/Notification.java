package dev.switchboard.bench;

import jakarta.json.Json;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * The fields of a server notification ({@code {"jsonrpc":"2.0","method":…,"params":{…}}}) the
 * benchmark needs, read with the streaming parser (no object model: a subscriber scenario parses
 * about a million of them). Absent fields are null, an absent {@code seq} is -1.
 */
record Notification(String method, String turnId, String threadId, String completedAt, long seq, long lastSeq) {

    static final String TURN_COMPLETED = "turn/completed";
    static final String TURN_INTERRUPTED = "turn/interrupted";
    static final String STREAM_OVERFLOW = "stream/overflow";

    private static final JsonParserFactory FACTORY = Json.createParserFactory(Map.of());

    /** Null when the text is not a JSON object. */
    static Notification parse(String json) {
        String method = null;
        String turnId = null;
        String threadId = null;
        String completedAt = null;
        long seq = -1;
        long lastSeq = -1;
        try (JsonParser parser = FACTORY.createParser(new StringReader(json))) {
            int depth = 0;
            boolean inParams = false;
            String key = null;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                switch (event) {
                    case START_OBJECT, START_ARRAY -> {
                        if (depth == 0 && event != JsonParser.Event.START_OBJECT) {
                            return null;
                        }
                        if (depth == 1 && "params".equals(key) && event == JsonParser.Event.START_OBJECT) {
                            inParams = true;
                        }
                        depth++;
                        key = null;
                    }
                    case END_OBJECT, END_ARRAY -> {
                        depth--;
                        if (depth <= 1) {
                            inParams = false;
                        }
                        key = null;
                    }
                    case KEY_NAME -> key = parser.getString();
                    case VALUE_STRING -> {
                        if (depth == 1 && "method".equals(key)) {
                            method = parser.getString();
                        } else if (depth == 2 && inParams && key != null) {
                            switch (key) {
                                case "turn_id" -> turnId = parser.getString();
                                case "thread_id" -> threadId = parser.getString();
                                case "completed_at" -> completedAt = parser.getString();
                                default -> {
                                    // not needed
                                }
                            }
                        }
                        key = null;
                    }
                    case VALUE_NUMBER -> {
                        if (depth == 2 && inParams && "seq".equals(key)) {
                            seq = parser.getLong();
                        } else if (depth == 2 && inParams && "last_seq".equals(key)) {
                            lastSeq = parser.getLong();
                        }
                        key = null;
                    }
                    default -> key = null;
                }
            }
        } catch (JsonParsingException e) {
            return null;
        }
        return new Notification(method, turnId, threadId, completedAt, seq, lastSeq);
    }

    /** An RFC 3339 timestamp ({@code Z} or an offset, any fraction digits) as epoch microseconds. */
    static long epochMicros(String timestamp) {
        Instant instant;
        try {
            instant = Instant.parse(timestamp);
        } catch (DateTimeParseException e) {
            instant = OffsetDateTime.parse(timestamp).toInstant();
        }
        return epochMicros(instant);
    }

    static long epochMicros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    /** The wall clock in epoch microseconds (the JDK's system clock has microsecond resolution on Linux). */
    static long nowMicros() {
        return epochMicros(Instant.now());
    }

    /** Whether {@code text} contains {@code needle}, without copying a {@link CharSequence} into a String. */
    static boolean contains(CharSequence text, String needle) {
        if (text instanceof String s) {
            return s.contains(needle);
        }
        int n = needle.length();
        int last = text.length() - n;
        char first = needle.charAt(0);
        outer:
        for (int i = 0; i <= last; i++) {
            if (text.charAt(i) != first) {
                continue;
            }
            for (int j = 1; j < n; j++) {
                if (text.charAt(i + j) != needle.charAt(j)) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
