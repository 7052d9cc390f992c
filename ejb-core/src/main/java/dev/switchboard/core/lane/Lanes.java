package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.persistence.run.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The lane as the features above it use it, inside their own transaction: lock a thread's lane,
 * enqueue runs, end runs the lane holds (every end through {@link RunEnds}), resume a parked run.
 * The lane's rows are written here and in the lane's own transactions ({@link LaneLedger}) only;
 * a feature holds a {@link Lane} as read, never writes one.
 */
@ApplicationScoped
public class Lanes {

    @Inject
    LaneRows rows;

    @Inject
    RunEnds ends;

    @Inject
    LaneHead head;

    @Inject
    InstanceClock clock;

    /** The runs an end reached, and what it means for other lanes. */
    public record Ended(Lane lane, List<LaneRun> runs, LaneEffects effects) {
    }

    /** Makes the lane of a thread just made, in the transaction that makes the thread. */
    public void open(long threadId) {
        rows.open(threadId);
    }

    /**
     * Locks the thread's lane for the rest of the transaction — claims, finishes and ingests of
     * one thread are serialised by it on every instance; null when there is no such thread.
     */
    public Lane lock(long threadId) {
        return rows.lock(threadId);
    }

    /**
     * Adds {@code run} (numbered {@code lane.nextSeq()}, queued or started as its record says) to the
     * locked {@code lane}; returns the lane after it, which the caller {@linkplain #save saves} once
     * it enqueued all it will, or claims ({@link LaneHead}).
     */
    public Lane enqueue(Lane lane, NewRun run) {
        if (run.threadId() != lane.threadId() || run.threadSeq() != lane.nextSeq()) {
            throw new IllegalArgumentException("run " + run.runId() + " is not the next of thread " + lane.threadId());
        }
        rows.insert(run);
        return lane.advanced();
    }

    /**
     * A run inserted started ({@link LaneHead#mayStartAdded}) as the only work of {@code lane}: the
     * lane leased to it, its claim.
     */
    public ClaimResult startedAdded(Lane lane, NewRun run) {
        return head.startedAdded(lane, rows.added(run));
    }

    /** Writes the lane's sequence after {@link #enqueue}s, nothing else: a lease is the lane's to write. */
    public void save(Lane lane) {
        rows.advance(lane);
    }

    /** The lane's oldest unfinished run, or null. */
    public LaneRun head(long threadId) {
        return rows.head(threadId, 0);
    }

    /** How many unfinished runs the lane holds. */
    public int unfinishedCount(long threadId) {
        return rows.unfinishedCount(threadId);
    }

    /** Which of {@code runIds} have ended (succeeded or failed). */
    public Set<String> ended(Collection<String> runIds) {
        return endsOf(runIds).stream().map(RunEnded::runId).collect(Collectors.toSet());
    }

    /** Those of {@code runIds} that have ended, and how. */
    public List<RunEnded> endsOf(Collection<String> runIds) {
        return rows.ended(List.copyOf(runIds));
    }

    /** Those of these threads whose lane nobody holds (no run of theirs executes or waits parked), by id. */
    public List<Long> unleased(List<Long> threadIds) {
        return rows.unleased(threadIds);
    }

    /** Whether the lane waits, parked, for a run's replies; read without its lock. */
    public boolean isParked(long threadId) {
        return rows.isParked(threadId);
    }

    /**
     * Ends those of {@code runIds} that are unfinished in the locked {@code lane} as {@code end}
     * says (a cancel, an interrupt, a supersede), in the lane's order; an executing one that holds
     * the lease releases it (its engine is stopped by the caller, a late result fenced out).
     */
    public Ended end(Lane lane, Collection<String> runIds, RunEnd end) {
        return endRuns(lane, unfinished(lane, run -> runIds.contains(run.runId())), end);
    }

    /**
     * As {@link #end(Lane, Collection, RunEnd)} for every unfinished run of the lane (with
     * {@code executingOnly}, the executing one); a lease held for nothing — parked, orphaned — goes too.
     */
    public Ended endAll(Lane lane, RunEnd end, boolean executingOnly) {
        Ended ended = endRuns(lane, unfinished(lane, run -> !executingOnly || run.state() == RunState.EXECUTING), end);
        if (ended.lane().leaseOwner() == null) {
            return ended;
        }
        Lane released = ended.lane().released();
        rows.write(released);
        return new Ended(released, ended.runs(), ended.effects());
    }

    /** The lane's unfinished runs that {@code which} picks, in the lane's order: one read. */
    private List<LaneRun> unfinished(Lane lane, Predicate<LaneRun> which) {
        return rows.unfinished(lane.threadId()).stream().filter(which).toList();
    }

    private Ended endRuns(Lane lane, List<LaneRun> runs, RunEnd end) {
        long now = clock.millis();
        Lane current = lane;
        LaneEffects effects = LaneEffects.NONE;
        for (LaneRun run : runs) {
            if (run.runId().equals(current.leaseRunId())) {
                current = current.released();
                rows.write(current);
            }
            effects = effects.plus(ends.end(run, end, run.attempt(), false, now));
        }
        return new Ended(current, runs, effects);
    }

    /**
     * Queues {@code runId} again when the locked {@code lane} is parked for it (what it waited for is
     * in): the lane is free, and woken.
     */
    public LaneEffects resume(Lane lane, String runId) {
        if (!lane.isParkedFor(runId)) {
            return LaneEffects.NONE;
        }
        rows.requeue(runId, lane.leaseAttempt(), clock.millis());
        rows.write(lane.released());
        return new LaneEffects(List.of(lane.threadId()), List.of());
    }
}
