package dev.switchboard.core.runtime;

/**
 * A user's runtime state as {@code server/status} reports it; {@code eventsProcessed} counts the
 * ingress events handed off to a lane, {@code lastEventAt} is when the newest arrived.
 */
public record RuntimeStatus(boolean paused, long eventsProcessed, Long lastEventAt, String sessionId, Long pausedAt,
        Long resumedAt) {
}
