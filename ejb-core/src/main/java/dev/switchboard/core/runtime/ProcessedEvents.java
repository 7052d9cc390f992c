package dev.switchboard.core.runtime;

/**
 * What {@code server/status} reports of a user's events: how many were handed off to a lane and
 * when the newest of them arrived. The events are ingress's, which sits above the runtime: it
 * counts them (its {@code AcceptedEventCounts}), the runtime only asks.
 */
public interface ProcessedEvents {

    /** {@code lastAt} is epoch ms, null when there is none. */
    record Count(long events, Long lastAt) {
    }

    Count of(String userKey);
}
