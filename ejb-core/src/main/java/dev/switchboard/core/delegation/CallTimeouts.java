package dev.switchboard.core.delegation;

import dev.switchboard.core.delegation.CallSlots.SlotRow;
import dev.switchboard.core.delegation.PathRegistry.PathRow;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.Lanes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * A call past its deadline, found by the sweep ({@link CallSlots#overdue}) and timed out in a
 * transaction of its own: the reply its caller gets when its callee gave none in time.
 */
@ApplicationScoped
public class CallTimeouts {

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

    /**
     * The call slot timed out, in a transaction of its own: the caller gets one {@code timeout}
     * SystemError from the callee (exactly once: the slot is answered only while pending), the
     * callee's path closes ({@code timed_out}) with everything below it. A callee still executing
     * goes on (its reply will be dropped as late, and it can make no more calls); one waiting for
     * replies of its own has its lane cancelled after the commit.
     */
    public LaneEffects expire(String callerRunId, int slotNumber, long now) {
        SlotRow seen = slots.slot(callerRunId, slotNumber).orElse(null);
        if (seen == null || !seen.isPending()) {
            return LaneEffects.NONE;
        }
        PathRow root = paths.lockRoot(seen.rootUuid());
        Lane callerLane = threadLanes.lock(seen.callerThread());
        SlotRow slot = slots.slot(callerRunId, slotNumber).orElse(null);
        if (slot == null || !slot.isPending() || slot.deadlineAt() == null || slot.deadlineAt() >= now) {
            return LaneEffects.NONE;
        }
        PathRow callee = slot.childUuid() == null ? null : paths.path(slot.childUuid()).orElse(null);
        String from = callee == null ? CallSlots.SYSTEM : callee.agent();
        slots.timeOut(callerRunId, slotNumber, from, now);
        LaneEffects effects = LaneEffects.NONE;
        if (callee != null) {
            effects = closing.close(callee, "timed_out", null, now, lanes.isParked(callee.threadId()));
            journal.record(root, callee.uuid(), callee.segments(), callee.agent(), callee.caller(), "SystemError", "Failed",
                    "timeout", now);
            journal.hop(root, "timed_out", callee.uuid(), callee.parentUuid(), callee.agent(), callee.caller(), "timeout");
        }
        return effects.plus(lanes.resumeIfAnswered(callerLane, callerRunId));
    }
}
