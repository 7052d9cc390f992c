package dev.switchboard.core.webhook;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Webhooks' configuration (docs/operations.md, "Outgoing webhooks"). Invalid values fail the
 * start: a delivery policy must never be guessed.
 */
@ApplicationScoped
public class WebhookSettings {

    /** Networks endpoints may reach although internal (loopback, private…), and by plain http; CIDRs. */
    @Inject
    @ConfigProperty(name = "switchboard.webhooks.allowed-networks", defaultValue = " ")
    String allowedNetworks;

    @Inject
    @ConfigProperty(name = "switchboard.webhooks.retry-schedule", defaultValue = RetrySchedule.DEFAULT)
    String retrySchedule;

    @Inject
    @ConfigProperty(name = "switchboard.webhooks.jitter", defaultValue = "0.2")
    double jitter;

    /** Deliveries in flight on this instance at most: the sender pool's threads. */
    @Inject
    @ConfigProperty(name = "switchboard.webhooks.senders", defaultValue = "8")
    int senders;

    @Inject
    @ConfigProperty(name = "switchboard.webhooks.connect-timeout-ms", defaultValue = "5000")
    long connectTimeoutMs;

    /** The whole attempt, from sending to the answer's end. */
    @Inject
    @ConfigProperty(name = "switchboard.webhooks.timeout-ms", defaultValue = "15000")
    long timeoutMs;

    @Inject
    @ConfigProperty(name = "switchboard.webhooks.poll-ms", defaultValue = "250")
    long pollMs;

    /** How much longer than an attempt's timeouts a message stays leased to the instance sending it. */
    @Inject
    @ConfigProperty(name = "switchboard.webhooks.lease-margin-ms", defaultValue = "10000")
    long leaseMarginMs;

    /** A larger event is sent with its data cut to the ids (and {@code "truncated": true}). */
    @Inject
    @ConfigProperty(name = "switchboard.webhooks.max-body-bytes", defaultValue = "65536")
    int maxBodyBytes;

    @Inject
    @ConfigProperty(name = "switchboard.webhooks.max-endpoints", defaultValue = "20")
    int maxEndpoints;

    /** Delivered and failed messages, and their attempts, are kept this long. */
    @Inject
    @ConfigProperty(name = "switchboard.webhooks.retention-days", defaultValue = "30")
    int retentionDays;

    public AddressPolicy addressPolicy() {
        return new AddressPolicy(Network.parseList(allowedNetworks));
    }

    public RetrySchedule retrySchedule() {
        return new RetrySchedule(RetrySchedule.parse(retrySchedule), jitter, Math::random);
    }

    public int senders() {
        return Math.max(1, senders);
    }

    public Duration connectTimeout() {
        return Duration.ofMillis(Math.max(100, connectTimeoutMs));
    }

    public Duration timeout() {
        return Duration.ofMillis(Math.max(100, timeoutMs));
    }

    /**
     * How long an instance holds a message it sends: past the timeouts of an attempt it may wait
     * behind in the sender queue and of its own, so that a message is taken again by another
     * instance only when its sender is gone.
     */
    public Duration lease() {
        return connectTimeout().plus(timeout()).multipliedBy(2).plusMillis(Math.max(0, leaseMarginMs));
    }

    public long pollMs() {
        return Math.max(20, pollMs);
    }

    public int maxBodyBytes() {
        return Math.max(1024, maxBodyBytes);
    }

    public int maxEndpoints() {
        return Math.max(1, maxEndpoints);
    }

    public Duration retention() {
        return Duration.ofDays(Math.max(1, retentionDays));
    }
}
