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
    PathLedger paths;

    @Inject
    InstanceClock clock;

    /** Call slots past their deadline. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<PathLedger.SlotRow> overdueCalls() {
        return paths.overdue(clock.millis());
    }

    /** Times the call slot out, if it is still pending and overdue. */
    public LaneEffects expireCall(String callerRunId, int slot) {
        return paths.expire(callerRunId, slot, clock.millis());
    }

    /** Live paths whose run has ended. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<PathLedger.Orphan> orphanPaths() {
        return paths.orphans();
    }

    /** Closes an orphaned path and what lives below it. */
    public LaneEffects closeOrphan(PathLedger.Orphan orphan) {
        return paths.closeOrphan(orphan.uuid(), orphan.ended(), clock.millis());
    }
}
