package dev.switchboard.core.ingress;

import java.time.Duration;
import java.time.Instant;

/**
 * Timer events (holon-serve spec §8): a tick at {@code at} belongs to the bucket
 * {@code at} truncated to the interval, and the bucket is its dedupe key — so a schedule ticks once
 * per bucket however many instances fire it, and a tick missed while every instance was down is
 * one event for the current bucket, not one per missed interval.
 */
public final class TimerTicks {

    private TimerTicks() {
    }

    /** The bucket (unix seconds) of {@code at} for {@code interval}. */
    public static long bucket(Instant at, Duration interval) {
        long seconds = interval.getSeconds();
        if (seconds <= 0) {
            throw new IllegalArgumentException("timer interval must be at least one second");
        }
        long epoch = at.getEpochSecond();
        return Math.floorDiv(epoch, seconds) * seconds;
    }

    public static EventEnvelope tick(String id, String repo, Instant at, Duration interval) {
        long bucket = bucket(at, interval);
        return new EventEnvelope(id, "timer", "timer.tick", at, EventEnvelope.Scope.EMPTY.withRepo(repo),
                new EventEnvelope.Subject("timer", Long.toString(bucket)), "timer:" + repo + ":" + bucket, null);
    }
}
