package dev.switchboard.core.delegation;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.lane.LaneEffects;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.List;

/** Delegation's timers as transactions: each change one of its own, each read none. */
@Stateless
@LocalBean
public class PathSweeps {

    @Inject
    CallSlots slots;

    @Inject
    CallTimeouts timeouts;

    @Inject
    PathRegistry paths;

    @Inject
    PathClosing closing;

    @Inject
    InstanceClock clock;

    /** Call slots past their deadline. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<CallSlots.SlotRow> overdueCalls() {
        return slots.overdue(clock.millis());
    }

    /** Times the call slot out, if it is still pending and overdue. */
    public LaneEffects expireCall(String callerRunId, int slot) {
        return timeouts.expire(callerRunId, slot, clock.millis());
    }

    /** Live paths whose run has ended. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<PathRegistry.Orphan> orphanPaths() {
        return paths.orphans();
    }

    /** Closes an orphaned path and what lives below it. */
    public LaneEffects closeOrphan(PathRegistry.Orphan orphan) {
        return closing.closeOrphan(orphan.uuid(), orphan.ended(), clock.millis());
    }
}
