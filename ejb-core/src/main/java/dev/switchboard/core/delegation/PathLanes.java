package dev.switchboard.core.delegation;

import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.lane.NewRun;
import dev.switchboard.core.thread.ThreadKinds;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Delegation's lanes. A path's lane is a thread of its own, owned by {@link #PATHS_USER} (no user
 * can name it) and keyed by the path's UUID, holding one run: the call. A caller that waits keeps
 * its run executing and its lane parked ({@link Lanes#resume}) until the last reply is in;
 * then the run is queued again and its next attempt finds every reply ({@link PathReads#context}).
 */
@ApplicationScoped
public class PathLanes {

    /**
     * The owner of every path's lane: a key no authenticated user can have, whose threads are
     * therefore internal ({@link ThreadKinds}: left out of a list of threads unless asked for).
     */
    public static final String PATHS_USER = ThreadKinds.SERVER_USER_PREFIX + "agents";
    /** The source of a path's run, before the name of the agent it calls. */
    public static final String SOURCE = "delegation:";

    @Inject
    ThreadRepository repository;

    @Inject
    Lanes threadLanes;

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
        long threadId = repository.create(PATHS_USER, uuid, agent.engine(), now);
        Lane lane = threadLanes.lock(threadId);
        threadLanes.save(threadLanes.enqueue(lane, NewRun.queued(runId, threadId, lane.nextSeq(), now, RunContent.of(
                PATHS_USER, uuid, SOURCE + slot.listener(), RunKind.DELEGATED, null, "followUp", slot.input(), null, null,
                uuid))));
        return threadId;
    }

    /** Whether the lane waits for replies, read without its lock (its owner's finish may be racing this). */
    public boolean isParked(long threadId) {
        return threadLanes.isParked(threadId);
    }

    /** Queues the caller's run again when nothing it waits for is pending: its lane is no longer parked. */
    public LaneEffects resumeIfAnswered(Lane callerLane, String callerRunId) {
        return slots.pending(callerRunId) > 0 ? LaneEffects.NONE : threadLanes.resume(callerLane, callerRunId);
    }
}
