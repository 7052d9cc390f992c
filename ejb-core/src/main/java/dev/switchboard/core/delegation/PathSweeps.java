package dev.switchboard.core.delegation;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.lane.RunEnded;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

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

    @Inject
    Lanes lanes;

    /** Orphans closed per sweep at most; live paths read a page at a time. */
    static final int ORPHANS = 100;
    static final int PAGE = 500;

    /** Call slots past their deadline. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<CallSlots.SlotRow> overdueCalls() {
        return slots.overdue(clock.millis());
    }

    /** Times the call slot out, if it is still pending and overdue. */
    public LaneEffects expireCall(String callerRunId, int slot) {
        return timeouts.expire(callerRunId, slot, clock.millis());
    }

    /**
     * Up to {@value #ORPHANS} live paths whose run has ended without closing them: the handlers of
     * a cancelled or interrupted unit of work or call (whatever cancelled it), the roots of finished
     * units — the live paths a page at a time, their runs' ends asked of the lane, which owns them.
     * {@link #closeOrphan} closes each.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<PathRegistry.Orphan> orphanPaths() {
        List<PathRegistry.Orphan> orphans = new ArrayList<>();
        String after = "";
        List<PathRegistry.LiveRun> page;
        do {
            page = paths.liveRuns(after, PAGE);
            if (page.isEmpty()) {
                break;
            }
            after = page.get(page.size() - 1).uuid();
            Map<String, RunEnded> ends = lanes.endsOf(page.stream().map(PathRegistry.LiveRun::runId).toList()).stream()
                    .collect(Collectors.toMap(RunEnded::runId, end -> end, (a, b) -> a));
            for (PathRegistry.LiveRun live : page) {
                RunEnded end = ends.get(live.runId());
                if (end != null) {
                    orphans.add(new PathRegistry.Orphan(live.uuid(), PathEnds.ofUnit(end.state(), end.errorCode())));
                }
            }
        } while (page.size() == PAGE && orphans.size() < ORPHANS);
        return orphans.size() > ORPHANS ? orphans.subList(0, ORPHANS) : orphans;
    }

    /** Closes an orphaned path and what lives below it. */
    public LaneEffects closeOrphan(PathRegistry.Orphan orphan) {
        return closing.closeOrphan(orphan.uuid(), orphan.ended(), clock.millis());
    }
}
