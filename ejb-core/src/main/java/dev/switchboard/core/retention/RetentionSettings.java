package dev.switchboard.core.retention;

import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Retention's configuration (docs/operations.md, "Retention"): the ages in days ({@code 0} keeps
 * for ever), per run kind through {@code switchboard.retention.runs-days.<kind>} (environment
 * {@code SWITCHBOARD_RETENTION_RUNS_DAYS_EVENT} and so on), and the pace of the passes. A value that
 * makes no sense (negative) turns retention off for everything, with a warning: a typo must never
 * delete what a user meant to keep.
 */
@ApplicationScoped
public class RetentionSettings {

    private static final Logger LOG = Logger.getLogger(RetentionSettings.class.getName());
    static final String RUNS_DAYS = "switchboard.retention.runs-days";

    @Inject
    Config config;

    @Inject
    @ConfigProperty(name = RUNS_DAYS, defaultValue = "30")
    long runsDays;

    @Inject
    @ConfigProperty(name = "switchboard.retention.items-days", defaultValue = "0")
    long itemsDays;

    @Inject
    @ConfigProperty(name = "switchboard.retention.idle-workspaces-days", defaultValue = "0")
    long idleWorkspacesDays;

    /** How often a pass starts (the first one a period after start). */
    @Inject
    @ConfigProperty(name = "switchboard.retention.every-ms", defaultValue = "60000")
    long everyMs;

    /** Rows per batch: one transaction each, short enough that no lane waits on it. */
    @Inject
    @ConfigProperty(name = "switchboard.retention.batch", defaultValue = "500")
    int batch;

    /** The pause between two batches, so that a backlog is worked off without taking the database from the hot path. */
    @Inject
    @ConfigProperty(name = "switchboard.retention.pause-ms", defaultValue = "400")
    long pauseMs;

    private volatile Optional<RetentionPolicy> policy;

    /** The policy; empty when the configuration is invalid (then nothing is pruned). */
    public Optional<RetentionPolicy> policy() {
        Optional<RetentionPolicy> known = policy;
        if (known == null) {
            known = read();
            policy = known;
        }
        return known;
    }

    private Optional<RetentionPolicy> read() {
        try {
            Map<RunKind, Duration> byKind = new EnumMap<>(RunKind.class);
            for (RunKind kind : RunKind.values()) {
                config.getOptionalValue(RUNS_DAYS + "." + kind.wire(), Long.class)
                        .ifPresent(days -> byKind.put(kind, Duration.ofDays(days)));
            }
            return Optional.of(RetentionPolicy.of(Duration.ofDays(runsDays), byKind, Duration.ofDays(itemsDays),
                    Duration.ofDays(idleWorkspacesDays)));
        } catch (IllegalArgumentException e) {
            LOG.warning(() -> "Retention is off: " + e.getMessage());
            return Optional.empty();
        }
    }

    public long everyMs() {
        return Math.max(100, everyMs);
    }

    public int batch() {
        return Math.max(1, Math.min(batch, 5000));
    }

    public long pauseMs() {
        return Math.max(0, pauseMs);
    }
}
