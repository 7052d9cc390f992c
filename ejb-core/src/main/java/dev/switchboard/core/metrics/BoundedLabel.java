package dev.switchboard.core.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A metric label whose values come from clients (an ingress event's {@code source}): the first
 * {@code limit} distinct values are kept as they are, every later one becomes {@code overflow}, so
 * a careless or hostile sender cannot grow the metrics without bound (one series per value).
 */
final class BoundedLabel {

    private final int limit;
    private final String overflow;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    BoundedLabel(int limit, String overflow) {
        this.limit = limit;
        this.overflow = overflow;
    }

    String of(String value) {
        if (seen.contains(value)) {
            return value;
        }
        synchronized (this) {
            if (seen.size() < limit) {
                seen.add(value);
                return value;
            }
        }
        return overflow;
    }
}
