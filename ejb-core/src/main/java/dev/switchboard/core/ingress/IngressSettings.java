package dev.switchboard.core.ingress;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Ingress settings, from MicroProfile Config. */
@ApplicationScoped
public class IngressSettings {

    private static final Logger LOG = Logger.getLogger(IngressSettings.class.getName());

    /** GitHub webhook secret; when set, deliveries must carry a valid {@code X-Hub-Signature-256}. */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.github.secret")
    Optional<String> githubSecret;

    /** The user that owns webhook deliveries authenticated by signature. */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.user", defaultValue = "local")
    String user;

    /** Repository assumed for deliveries that name none (Holon's {@code --repo}). */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.repo-hint")
    Optional<String> repoHint;

    /** Largest accepted body (Holon: 10 MiB). */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.max-body-bytes", defaultValue = "10485760")
    long maxBodyBytes;

    /** Timer interval (Holon's {@code --tick-interval}); off when unset. */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.tick-interval")
    Optional<String> tickInterval;

    /** Repositories that get a timer each; defaults to the repo hint. */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.tick-repos")
    Optional<String> tickRepos;

    /**
     * How often every instance looks for held events whose runtime runs again and releases them:
     * a release that failed, or a resuming instance that crashed before releasing, strands none.
     */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.release-sweep-ms", defaultValue = "30000")
    long releaseSweepMs;

    public long releaseSweepMs() {
        return Math.max(100, releaseSweepMs);
    }

    /**
     * The timer schedule, when one is configured and valid. An invalid interval, or an interval
     * without any repository, is logged and leaves timers off (Holon's rule for invalid values).
     */
    public Optional<TickSchedule> tickSchedule() {
        if (tickInterval.isEmpty() || tickInterval.get().isBlank()) {
            return Optional.empty();
        }
        Optional<Duration> interval = TickSchedule.parseInterval(tickInterval.get());
        if (interval.isEmpty()) {
            LOG.warning(() -> "switchboard.ingress.tick-interval '" + tickInterval.get()
                    + "' is not a duration of at least 1s (e.g. 5m, 90s, PT1H); timers are off");
            return Optional.empty();
        }
        List<String> repos = TickSchedule.parseRepos(tickRepos.orElse(repoHint()));
        if (repos.isEmpty()) {
            LOG.warning("switchboard.ingress.tick-interval needs switchboard.ingress.tick-repos or "
                    + "switchboard.ingress.repo-hint; timers are off");
            return Optional.empty();
        }
        return Optional.of(new TickSchedule(interval.get(), repos));
    }

    /** How long a dedupe key is remembered (H9: an age, not Holon's 2000 newest keys). */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.dedupe-retention-days", defaultValue = "30")
    int dedupeRetentionDays;

    /** At least one day; an invalid value falls back to 30 with a warning (Holon's rule). */
    public Duration dedupeRetention() {
        if (dedupeRetentionDays < 1) {
            LOG.warning(() -> "switchboard.ingress.dedupe-retention-days " + dedupeRetentionDays
                    + " is below 1; using 30");
            return Duration.ofDays(30);
        }
        return Duration.ofDays(dedupeRetentionDays);
    }

    /** How long events, decisions and actions are kept; 0 keeps them forever. */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.records-retention-days", defaultValue = "30")
    int recordsRetentionDays;

    /** Empty when records are kept forever; a negative value falls back to 30 with a warning. */
    public Optional<Duration> recordsRetention() {
        if (recordsRetentionDays == 0) {
            return Optional.empty();
        }
        if (recordsRetentionDays < 0) {
            LOG.warning(() -> "switchboard.ingress.records-retention-days " + recordsRetentionDays
                    + " is negative; using 30");
            return Optional.of(Duration.ofDays(30));
        }
        return Optional.of(Duration.ofDays(recordsRetentionDays));
    }

    public Optional<String> githubSecret() {
        return githubSecret.map(String::strip).filter(s -> !s.isEmpty());
    }

    public String user() {
        return user;
    }

    public String repoHint() {
        return repoHint.orElse("");
    }

    public long maxBodyBytes() {
        return maxBodyBytes;
    }
}
