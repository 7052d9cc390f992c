package dev.switchboard.core.webhook;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * When a failed message is tried again: after each delay of the schedule in turn (by default the
 * Standard Webhooks one: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — the last attempt a little over a
 * day after the first), each stretched or shrunk by up to {@code jitter} at random so that the
 * messages of an endpoint that was down do not all come back at once. After the last delay's
 * attempt fails, the message has failed.
 */
public final class RetrySchedule {

    public static final String DEFAULT = "5s,5m,30m,2h,5h,10h,10h";

    private final List<Duration> delays;
    private final double jitter;
    private final DoubleSupplier random;

    public RetrySchedule(List<Duration> delays, double jitter, DoubleSupplier random) {
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("jitter is a fraction below 1");
        }
        this.delays = List.copyOf(delays);
        this.jitter = jitter;
        this.random = random;
    }

    /** Delays like {@code 5s,5m,2h} (units ms, s, m, h). */
    public static List<Duration> parse(String schedule) {
        List<Duration> delays = new ArrayList<>();
        for (String part : schedule.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            long n;
            Duration d;
            try {
                if (p.endsWith("ms")) {
                    d = Duration.ofMillis(Long.parseLong(p.substring(0, p.length() - 2)));
                } else {
                    n = Long.parseLong(p.substring(0, p.length() - 1));
                    d = switch (p.charAt(p.length() - 1)) {
                        case 's' -> Duration.ofSeconds(n);
                        case 'm' -> Duration.ofMinutes(n);
                        case 'h' -> Duration.ofHours(n);
                        default -> throw new IllegalArgumentException("unknown unit in " + p);
                    };
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a delay: " + p, e);
            }
            if (d.isNegative()) {
                throw new IllegalArgumentException("a delay is not negative: " + p);
            }
            delays.add(d);
        }
        return delays;
    }

    /** How many attempts a message gets in all. */
    public int attempts() {
        return delays.size() + 1;
    }

    /**
     * The wait after attempt number {@code attempt} (1 for the first) failed; null when that was
     * the last.
     */
    public Duration after(int attempt) {
        if (attempt < 1 || attempt > delays.size()) {
            return null;
        }
        Duration base = delays.get(attempt - 1);
        double factor = 1 + jitter * (2 * random.getAsDouble() - 1);
        return Duration.ofMillis(Math.round(base.toMillis() * factor));
    }
}
