package dev.switchboard.core.delegation;

import dev.switchboard.core.delegation.PathRegistry.PathRow;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.lane.RunEnd;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Paths closing, never alone: whatever still lives below a path closes with it (cancelled), and the
 * calls its run waited for are dropped. A call's path closes as its reply goes out or its deadline
 * passes; a path whose run ended without closing it (an orphan) is closed by the sweep, in a
 * transaction of its own; a tree's root and entry path close with their unit of work.
 */
@ApplicationScoped
public class PathClosing {

    @Inject
    PathRegistry paths;

    @Inject
    CallSlots slots;

    @Inject
    PathJournal journal;

    /**
     * Closes the orphaned path {@code uuid} (its run ended) and everything live below it: a tree's
     * root as its unit of work {@code ended}, a call's path — and every path below — as cancelled.
     */
    public LaneEffects closeOrphan(String uuid, String ended, long now) {
        PathRow path = paths.path(uuid).orElse(null);
        if (path == null || !path.isLive()) {
            return LaneEffects.NONE;
        }
        PathRow root = paths.lockRoot(path.rootUuid());
        PathRow again = paths.path(uuid).orElse(null);
        if (again == null || !again.isLive()) {
            return LaneEffects.NONE;
        }
        journal.record(root, path.uuid(), path.segments(), null, null, "Path", "Closed", "its run ended", now);
        return close(again, path.depth() >= 2 ? "cancelled" : ended, null, now, false);
    }

    /** The outer unit of work {@code runId} ended: its tree's root and entry path close (a final answer, or not). */
    public void rootEnded(String runId, RunEnd end, long now) {
        paths.closeRoot(runId, PathEnds.ofUnit(end.state(), end.errorCode()), now);
    }

    /**
     * Closes {@code path} as {@code status} and cancels what lives below it: live children are
     * closed {@code cancelled} and their lanes returned for cancelling (which closes theirs in turn);
     * with {@code cancelOwn}, the path's own lane too (its run has not ended).
     */
    public LaneEffects close(PathRow path, String status, String resultText, long now, boolean cancelOwn) {
        paths.close(path, status, resultText, now);
        // What the path's run still waited for is moot: no timeout will be sent for it.
        slots.dropPending(path, now);
        List<Long> cancel = new ArrayList<>();
        if (cancelOwn && path.depth() >= 2) {
            cancel.add(path.threadId());
        }
        for (PathRow child : paths.liveChildren(path.uuid())) {
            cancel.addAll(close(child, "cancelled", null, now, true).cancel());
        }
        return new LaneEffects(List.of(), List.copyOf(new LinkedHashSet<>(cancel)));
    }
}
