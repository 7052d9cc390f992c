package dev.switchboard.core.delegation;

import dev.switchboard.core.delegation.CallSlots.SlotRow;
import dev.switchboard.core.delegation.PathRegistry.PathRow;
import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.LaneRun;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.lane.RunEnd;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The delegation tree's rows — path registry ({@link PathRegistry}), call slots ({@link CallSlots}),
 * journal ({@link PathJournal}) — changed in the caller's transaction, beside the lane change they
 * belong to: a dispatch in the caller's finish, a reply in the callee's (both here), a timeout
 * ({@link CallTimeouts}) and a cascade ({@link PathClosing}) in transactions of their own. Every
 * change of a tree locks its root row first (after, at most, the lane of the run that acts), then
 * the caller's lane: one order everywhere, so two transactions of a tree never wait for each other
 * in a circle. Each call runs on a lane of its own, and a caller waits for its replies on a parked
 * lane ({@link PathLanes}).
 */
@ApplicationScoped
public class PathLedger {

    /**
     * A dispatch's effects, and whether the caller now waits for replies; {@code refusal}: why
     * nothing was dispatched and the run ends failed instead (null when it was dispatched).
     */
    public record Dispatch(LaneEffects effects, boolean waits, String refusal) {
    }

    /** The error of a call whose path closed (it timed out) before the calls it asked for could be made. */
    public static final String CLOSED = "the call's path was closed (timed out) before its own calls were made";
    /** The error of an execution that asked only for calls already answered (it would loop forever). */
    public static final String REPEATED = "the engine asked again for calls already answered";

    @Inject
    PathRegistry paths;

    @Inject
    CallSlots slots;

    @Inject
    PathJournal journal;

    @Inject
    PathLanes lanes;

    @Inject
    PathClosing closing;

    @Inject
    Lanes threadLanes;

    @Inject
    DelegationSettings settings;

    /** True for an output that asks for calls (cheap: the engines build it with its type first). */
    public static boolean asksForCalls(String outputJson) {
        return outputJson != null && outputJson.startsWith("{\"type\":\"" + Delegation.CALLS + "\"");
    }

    /** True for an output that answers nothing ({@link Delegation#nothing()}). */
    public static boolean answersNothing(String outputJson) {
        return outputJson != null && outputJson.startsWith("{\"type\":\"" + Delegation.NOTHING + "\"");
    }

    // --- dispatch ---

    /**
     * Dispatches the calls {@code run}'s execution asked for, in the transaction that ends that
     * execution (its lane locked): the tree's root and entry path are minted at its first call;
     * calls already dispatched by an earlier attempt are not dispatched again.
     */
    public Dispatch dispatch(LaneRun run, List<Delegation.Call> calls, JsonObject state, long now) {
        PathRow caller = paths.handlerOf(run.runId()).orElse(null);
        if (caller == null) {
            if (PathLanes.isPathRun(RunContent.of(run).userKey())) {
                throw new IllegalStateException("run " + run.runId() + " runs on a path lane that has no path");
            }
            caller = mintTree(run, now);
        }
        PathRow root = paths.lockRoot(caller.rootUuid());
        if (!caller.isLive()) {
            return new Dispatch(LaneEffects.NONE, false, CLOSED);
        }
        paths.keepState(caller.uuid(), state);
        List<SlotRow> made = slots.slotsOf(run.runId());
        Set<Integer> done = made.stream().map(SlotRow::callIndex).collect(Collectors.toSet());
        List<Delegation.Call> fresh = calls.stream().filter(c -> !done.contains(c.index())).toList();
        if (fresh.isEmpty() && slots.pending(run.runId()) == 0) {
            return new Dispatch(LaneEffects.NONE, false, REPEATED);
        }
        int nextSlot = made.stream().mapToInt(SlotRow::slot).max().orElse(-1) + 1;
        Set<String> live = paths.liveChildren(caller.uuid()).stream().map(p -> p.segments().get(p.segments().size() - 1))
                .collect(Collectors.toSet());
        DelegationRules.Routing routing = settings.rules().route(caller.agent(), caller.segments(), fresh, root.hops(), live);
        List<Long> wake = new ArrayList<>();
        for (DelegationRules.Slot slot : routing.slots()) {
            int number = nextSlot++;
            if (slot.dispatched()) {
                wake.add(dispatchOne(root, caller, run, slot, number, now));
            } else {
                slots.insert(new SlotRow(run.runId(), number, slot.call(), caller.uuid(), run.threadId(), root.uuid(),
                        PathNames.clip(slot.to()), null, CallSlots.SYSTEM, "error", slot.code(), slot.message(), null, now,
                        now));
                journal.record(root, caller.uuid(), caller.segments(), caller.agent(), slot.to(), "SystemError", "Failed",
                        slot.code(), now);
                journal.hop(root, "refused", caller.uuid(), null, caller.agent(), PathNames.clip(slot.to()), slot.code());
            }
        }
        paths.addHops(root, routing.hops() - root.hops());
        return new Dispatch(new LaneEffects(wake, List.of()), slots.pending(run.runId()) > 0, null);
    }

    private long dispatchOne(PathRow root, PathRow caller, LaneRun run, DelegationRules.Slot slot, int number,
            long now) {
        String uuid = UUID.randomUUID().toString();
        List<String> segments = new ArrayList<>(caller.segments());
        segments.add(slot.segment());
        Agent agent = settings.agents().byName(slot.listener()).orElseThrow();
        String runId = UUID.randomUUID().toString();
        long threadId = lanes.open(uuid, agent, runId, slot, now);
        paths.insert(new PathRow(uuid, root.sessionRoot(), root.uuid(), root.rootRunId(), root.userKey(), root.threadKey(),
                segments, segments.size() - 1, caller.uuid(), slot.listener(), caller.agent(), threadId, runId, "live", 0,
                null, now, null));
        slots.insert(new SlotRow(run.runId(), number, slot.call(), caller.uuid(), run.threadId(), root.uuid(),
                PathNames.clip(slot.to()), uuid, null, "pending", null, null, now + settings.timeoutMs(slot.listener()), now,
                null));
        journal.record(root, uuid, segments, null, null, "Path", "Minted", null, now);
        journal.record(root, uuid, segments, caller.agent(), slot.listener(), "Call", "Dispatched", null, now);
        journal.hop(root, "dispatched", uuid, caller.uuid(), caller.agent(), slot.listener(), null);
        return threadId;
    }

    /** The root and entry path of the tree {@code run} (an outer unit of work) starts with its first call. */
    private PathRow mintTree(LaneRun run, long now) {
        String session = PathNames.newRoot();
        String rootUuid = UUID.randomUUID().toString();
        RunContent content = RunContent.of(run);
        PathRow root = new PathRow(rootUuid, session, rootUuid, run.runId(), content.userKey(), content.threadKey(),
                List.of(session), 0, null, session, null, run.threadId(), run.runId(), "live", 0, null, now, null);
        PathRow entry = new PathRow(UUID.randomUUID().toString(), session, rootUuid, run.runId(), content.userKey(),
                content.threadKey(), List.of(session, settings.entry()), 1, rootUuid, settings.entry(), null, run.threadId(),
                run.runId(), "live", 0, null, now, null);
        paths.insert(root);
        paths.insert(entry);
        journal.record(root, root.uuid(), root.segments(), null, null, "Path", "Minted", null, now);
        journal.record(root, entry.uuid(), entry.segments(), null, null, "Path", "Minted", null, now);
        return entry;
    }

    // --- replies ---

    /**
     * {@code run}, a path's call, ended as {@code end}: its reply (the answer, an {@code ack} for
     * nothing, a handler error for a failure) goes to the caller, on the caller's path, with
     * {@code from} = the path's agent; the path and whatever still lives below it close. When the
     * path was closed already (timed out, cancelled) the reply is dropped and journalled.
     */
    public LaneEffects replied(LaneRun run, RunEnd end, long now) {
        PathRow path = paths.handlerOf(run.runId()).orElse(null);
        if (path == null || path.depth() < 2) {
            return LaneEffects.NONE;
        }
        PathRow root = paths.lockRoot(path.rootUuid());
        PathEnds.CallEnd ended = PathEnds.ofCall(end.state(), end.outputJson(), end.errorMessage());
        SlotRow slot = slots.slotOfChild(path.uuid()).orElse(null);
        Lane callerLane = null;
        if (slot != null && slot.isPending()) {
            callerLane = threadLanes.lock(slot.callerThread());
            slot = callerLane == null ? null : slots.slot(slot.callerRunId(), slot.slot()).orElse(null); // read again under its lock
        }
        if (slot == null || !slot.isPending()) {
            journal.record(root, path.uuid(), path.segments(), path.agent(), path.caller(), "Reply", "late_reply_dropped",
                    "the path was closed (" + path.status() + ")", now);
            journal.hop(root, "late_reply_dropped", path.uuid(), path.parentUuid(), path.agent(), path.caller(), null);
            return closing.close(path, ended.pathStatus(), ended.kept(), now, false);
        }
        slots.answer(slot, path.agent(), ended, now);
        LaneEffects effects = closing.close(path, ended.pathStatus(), ended.kept(), now, false);
        paths.addHops(root, 1);
        journal.record(root, path.uuid(), path.segments(), path.agent(), path.caller(),
                ended.isError() ? "SystemError" : "Reply", ended.isError() ? "Failed" : "Delivered", ended.code(), now);
        journal.hop(root, ended.isError() ? "failed" : "replied", path.uuid(), path.parentUuid(), path.agent(), path.caller(),
                ended.code());
        return effects.plus(lanes.resumeIfAnswered(callerLane, slot.callerRunId()));
    }
}
