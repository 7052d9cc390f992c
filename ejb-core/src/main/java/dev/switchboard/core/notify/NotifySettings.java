package dev.switchboard.core.notify;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Notification delivery tuning, from MicroProfile Config. */
@ApplicationScoped
public class NotifySettings {

    /** How often the log is re-read for notifications other instances sequenced. */
    @Inject
    @ConfigProperty(name = "switchboard.notify.poll-ms", defaultValue = "100")
    long pollMs;

    /** Notifications a subscriber may have waiting before it is cut off as too slow. */
    @Inject
    @ConfigProperty(name = "switchboard.notify.buffer", defaultValue = "10000")
    int buffer;

    /** NDJSON keep-alive interval (Holon: 3 s). */
    @Inject
    @ConfigProperty(name = "switchboard.notify.keepalive-ms", defaultValue = "3000")
    long keepAliveMs;

    /** How long the log keeps notifications; older ones are pruned (clients cannot resume from before). */
    @Inject
    @ConfigProperty(name = "switchboard.notify.retention-hours", defaultValue = "168")
    long retentionHours;

    /**
     * How long a running engine's text deltas gather before they are written as one
     * {@code item/delta} notification (one small transaction per run per interval, whatever the
     * model's token rate).
     */
    @Inject
    @ConfigProperty(name = "switchboard.notify.delta-interval-ms", defaultValue = "100")
    long deltaIntervalMs;

    public long deltaIntervalMs() {
        return Math.max(10, deltaIntervalMs);
    }

    public long retentionMs() {
        return Math.max(1, retentionHours) * 3_600_000L;
    }

    public long pollMs() {
        return Math.max(5, pollMs);
    }

    public int buffer() {
        return Math.max(10, buffer);
    }

    public long keepAliveMs() {
        return Math.max(100, keepAliveMs);
    }
}
