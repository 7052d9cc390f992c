package dev.switchboard.core.retention;

import dev.switchboard.persistence.run.RunKind;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * How long each kind of record is kept: a zero duration keeps it for ever. Finished runs age by
 * their kind (a default and per-kind overrides: a user may keep the events' runs for a year and the
 * responses' for a day); the conversation history (thread items) and the workspaces of idle threads
 * have one age each, kept for ever by default because they are what a thread's next turn reads.
 * Plain rules, no container: the pruner asks it for cutoffs at the time of its pass.
 */
public final class RetentionPolicy {

    private final Map<RunKind, Duration> runs;
    private final Duration items;
    private final Duration idleWorkspaces;

    private RetentionPolicy(Map<RunKind, Duration> runs, Duration items, Duration idleWorkspaces) {
        this.runs = runs;
        this.items = items;
        this.idleWorkspaces = idleWorkspaces;
    }

    /**
     * @param runsDefault how long a finished run of any kind without an override is kept
     * @param runsByKind  overrides by kind
     * @throws IllegalArgumentException for a negative duration (a typo must not delete everything)
     */
    public static RetentionPolicy of(Duration runsDefault, Map<RunKind, Duration> runsByKind, Duration items,
            Duration idleWorkspaces) {
        Map<RunKind, Duration> runs = new EnumMap<>(RunKind.class);
        for (RunKind kind : RunKind.values()) {
            runs.put(kind, checked(runsByKind.getOrDefault(kind, runsDefault), "runs of kind " + kind.wire()));
        }
        return new RetentionPolicy(runs, checked(items, "thread items"), checked(idleWorkspaces, "idle workspaces"));
    }

    private static Duration checked(Duration age, String what) {
        if (age == null || age.isNegative()) {
            throw new IllegalArgumentException("the retention of " + what + " must be zero (keep) or positive, not "
                    + age);
        }
        return age;
    }

    /** Finished runs of {@code kind} created and finished before this instant are deleted; empty keeps them. */
    public Optional<Long> runsCutoff(RunKind kind, long nowMs) {
        return cutoff(runs.get(kind), nowMs);
    }

    /**
     * Delegation's journal entries written before this instant are deleted; empty keeps them. The
     * journal is the record of delegated calls, so it ages with the delegated runs.
     */
    public Optional<Long> delegationJournalCutoff(long nowMs) {
        return runsCutoff(RunKind.DELEGATED, nowMs);
    }

    /** Thread items created before this instant are deleted; empty keeps them. */
    public Optional<Long> itemsCutoff(long nowMs) {
        return cutoff(items, nowMs);
    }

    /** A thread without a run created since this instant loses its workspace; empty keeps them. */
    public Optional<Long> idleWorkspacesCutoff(long nowMs) {
        return cutoff(idleWorkspaces, nowMs);
    }

    /** Whether any kind is pruned at all (nothing to schedule otherwise). */
    public boolean prunesAnything() {
        return runs.values().stream().anyMatch(d -> !d.isZero()) || !items.isZero() || !idleWorkspaces.isZero();
    }

    /** The kept durations, for the start-up log line. */
    public String describe() {
        StringBuilder out = new StringBuilder("runs:");
        runs.forEach((kind, age) -> out.append(' ').append(kind.wire()).append('=').append(words(age)));
        return out.append("; thread items: ").append(words(items)).append("; idle workspaces: ")
                .append(words(idleWorkspaces)).toString();
    }

    private static String words(Duration age) {
        return age.isZero() ? "kept" : age.toDays() + "d";
    }

    private static Optional<Long> cutoff(Duration age, long nowMs) {
        return age.isZero() ? Optional.empty() : Optional.of(nowMs - age.toMillis());
    }
}
