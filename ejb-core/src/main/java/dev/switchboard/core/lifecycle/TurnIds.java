package dev.switchboard.core.lifecycle;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Holon-style identifiers ({@code turn_<unix nanos>}, {@code item_<unix nanos>}). The number is
 * strictly increasing within the process; its lowest three digits are random, so two instances
 * sharing a database do not collide on the same microsecond.
 */
public final class TurnIds {

    private static final AtomicLong LAST = new AtomicLong();

    private TurnIds() {
    }

    public static String turnId() {
        return "turn_" + next();
    }

    public static String itemId(String prefix) {
        return prefix + "_" + next();
    }

    static long next() {
        Instant now = Instant.now();
        long candidate = (now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000) * 1_000
                + ThreadLocalRandom.current().nextInt(1_000);
        return LAST.accumulateAndGet(candidate, (last, c) -> Math.max(last + 1, c));
    }
}
