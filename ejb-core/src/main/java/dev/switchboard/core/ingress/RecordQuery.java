package dev.switchboard.core.ingress;

import dev.switchboard.core.input.InvalidJsonException;
import dev.switchboard.core.input.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * A page request over the ingress records: filters by correlation key and time (epoch millis,
 * {@code since} inclusive, {@code until} exclusive), a cursor, and a page size. Null filters are
 * not applied. Records are ordered by time, then id, oldest first.
 */
public record RecordQuery(String eventId, String sessionKey, String runId, String turnId, String dedupeKey,
        String source, String status, Long since, Long until, Cursor after, int limit) {

    /** Where the previous page ended: the last record's time and id. Opaque to clients. */
    public record Cursor(long time, String id) {

        public String encode() {
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((time + ":" + id).getBytes(StandardCharsets.UTF_8));
        }

        /**
         * Empty when {@code text} is not a cursor this server produced: it must decode to a
         * non-negative time and a record id, and encode back to exactly {@code text}.
         */
        public static Optional<Cursor> decode(String text) {
            try {
                String raw = StrictJson.utf8(Base64.getUrlDecoder().decode(text));
                int colon = raw.indexOf(':');
                if (colon <= 0 || colon == raw.length() - 1) {
                    return Optional.empty();
                }
                long time = Long.parseLong(raw.substring(0, colon));
                String id = raw.substring(colon + 1);
                if (time < 0 || !EventEnvelope.ID.matcher(id).matches()) {
                    return Optional.empty();
                }
                Cursor cursor = new Cursor(time, id);
                return cursor.encode().equals(text) ? Optional.of(cursor) : Optional.empty();
            } catch (IllegalArgumentException | InvalidJsonException e) {
                return Optional.empty();
            }
        }
    }

    public RecordQuery withAfter(Cursor cursor) {
        return new RecordQuery(eventId, sessionKey, runId, turnId, dedupeKey, source, status, since, until, cursor,
                limit);
    }
}
