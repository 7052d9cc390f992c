package dev.switchboard.core.ingress;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The configured timer (Holon's {@code --tick-interval}, one emitter per repository): when its
 * ticks are due. A tick is due at every bucket boundary; the first one fires at start-up for the
 * current bucket, which is also how a tick missed while every instance was down fires once.
 */
public record TickSchedule(Duration interval, List<String> repos) {

    public static final Duration SHORTEST = Duration.ofSeconds(1);

    /**
     * {@code 5m}, {@code 90s}, {@code 1h} or ISO-8601 ({@code PT5M}); empty when the value is
     * blank, unparseable, shorter than a second or not whole seconds (buckets are unix seconds) (Holon: off, with a warning).
     */
    public static Optional<Duration> parseInterval(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String v = value.strip().toLowerCase(Locale.ROOT);
        Duration parsed;
        try {
            if (v.startsWith("pt")) {
                parsed = Duration.parse(v.toUpperCase(Locale.ROOT));
            } else if (v.endsWith("s")) {
                parsed = Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("m")) {
                parsed = Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("h")) {
                parsed = Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
            } else {
                return Optional.empty();
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            return Optional.empty();
        }
        return parsed.compareTo(SHORTEST) < 0 || parsed.getNano() != 0 ? Optional.empty() : Optional.of(parsed);
    }

    /** Comma-separated repositories, blanks dropped, duplicates removed. */
    public static List<String> parseRepos(String value) {
        if (value == null) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).distinct().toList();
    }

    /** When the tick after {@code now} is due: the next bucket boundary. */
    public Instant nextTick(Instant now) {
        long bucket = TimerTicks.bucket(now, interval);
        return Instant.ofEpochSecond(bucket).plus(interval);
    }
}
