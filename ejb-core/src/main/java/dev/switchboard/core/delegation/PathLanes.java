package dev.switchboard.core.delegation;

import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.thread.LaneRows;
import dev.switchboard.core.thread.ThreadKinds;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Delegation's lanes. A path's lane is a thread of its own, owned by {@link #PATHS_USER} (no user
 * can name it) and keyed by the path's UUID, holding one run: the call. A caller that waits keeps
 * its run executing but lets its lane's lease go to {@link #PARKED} until the last reply is in;
 * then the run is queued again and its next attempt finds every reply ({@link PathReads#context}).
 */
@ApplicationScoped
public class PathLanes {

    /**
     * The owner of every path's lane: a key no authenticated user can have, whose threads are
     * therefore internal ({@link ThreadKinds}: left out of a list of threads unless asked for).
     */
    public static final String PATHS_USER = ThreadKinds.SERVER_USER_PREFIX + "agents";
    /** The lease owner of a lane whose run waits for replies: no instance holds it, none may claim it. */
    public static final String PARKED = "~awaiting-replies";
    /** A parked lease's end: never, by any clock (year 9999). */
    public static final long PARKED_UNTIL = 253_402_300_799_999L;
    /** The source of a path's run, before the name of the agent it calls. */
    public static final String SOURCE = "delegation:";

    private static final String PARKED_LANE = "SELECT id FROM threads WHERE id = ? AND lease_owner = '" + PARKED + "'";
    private static final String SET_LANE = "UPDATE threads SET next_seq = 2, engine = ? WHERE id = ?";

    @Inject
    Statements statements;

    @Inject
    ThreadRepository repository;

    @Inject
    LaneRows rows;

    @Inject
    CallSlots slots;

    /** True for a run of a path's lane (a delegated call), by what its lane read. */
    public static boolean isPathRun(String userKey) {
        return PATHS_USER.equals(userKey);
    }

    /** The agent a path's run calls, by its source; null for any other run. */
    public static String agentOf(String source) {
        return source != null && source.startsWith(SOURCE) ? source.substring(SOURCE.length()) : null;
    }

    /**
     * Opens the lane of path {@code uuid}, on {@code agent}'s engine, with its one run {@code runId}:
     * the call of the slot's listener with the slot's input. Returns the lane's thread id.
     */
    public long open(String uuid, Agent agent, String runId, DelegationRules.Slot slot, long now) {
        long threadId = repository.create(PATHS_USER, uuid, now);
        statements.updateOne(SET_LANE, s -> {
            s.setString(1, agent.engine());
            s.setLong(2, threadId);
        }, "setting up the lane of path " + uuid);
        rows.insertQueued(runId, threadId, 1, PATHS_USER, uuid, SOURCE + slot.listener(), RunKind.DELEGATED, slot.input(),
                uuid, now);
        return threadId;
    }

    /** Whether the lane waits for replies, read without its lock (its owner's finish may be racing this). */
    public boolean isParked(long threadId) {
        return !statements.query(PARKED_LANE, s -> s.setLong(1, threadId), rs -> rs.getLong(1), "reading lane " + threadId)
                .isEmpty();
    }

    /** Queues the caller's run again when nothing it waits for is pending: its lane is no longer parked. */
    public LaneEffects resumeIfAnswered(LaneRows.Lane callerLane, String callerRunId, long now) {
        if (slots.pending(callerRunId) > 0 || !PARKED.equals(callerLane.leaseOwner())
                || !callerRunId.equals(callerLane.leaseRunId())) {
            return LaneEffects.NONE;
        }
        rows.requeue(callerRunId, callerLane.leaseAttempt(), now);
        rows.write(callerLane.released());
        return new LaneEffects(List.of(callerLane.threadId()), List.of());
    }
}
