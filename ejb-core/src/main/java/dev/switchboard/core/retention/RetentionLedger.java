package dev.switchboard.core.retention;

import dev.switchboard.core.delegation.CallSlots;
import dev.switchboard.core.delegation.PathJournal;
import dev.switchboard.core.delegation.PathRegistry;
import dev.switchboard.core.history.ResponseRecords;
import dev.switchboard.core.history.RunTexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.execution.RunColumns;
import dev.switchboard.core.lane.AgedRun;
import dev.switchboard.core.lane.FinishedRuns;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.persistence.run.RunKind;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;

/**
 * Retention's transactions: each batch is one, so it holds its locks for milliseconds. A run goes
 * with what belongs to it alone, each deleted by its table's store: its idempotency key, its
 * streamed text, its stored response, the call slots it made and — when it was a delegation
 * tree's root — the tree's paths; a turn goes once none of its runs is left.
 */
@Stateless
public class RetentionLedger {

    @Inject
    FinishedRuns runs;

    @Inject
    IdempotencyKeys keys;

    @Inject
    RunTexts texts;

    @Inject
    ResponseRecords responses;

    @Inject
    CallSlots callSlots;

    @Inject
    PathRegistry paths;

    @Inject
    PathJournal journal;

    @Inject
    TurnRows turns;

    @Inject
    ThreadItems items;

    @EJB
    ThreadWorkspaces workspaces;

    public RetentionLedger() {
    }

    /** Built outside the container (the in-process tests): each call must run in the caller's transaction. */
    RetentionLedger(FinishedRuns runs, IdempotencyKeys keys, RunTexts texts, ResponseRecords responses,
            CallSlots callSlots, PathRegistry paths, PathJournal journal, TurnRows turns, ThreadItems items,
            ThreadWorkspaces workspaces) {
        this.runs = runs;
        this.keys = keys;
        this.texts = texts;
        this.responses = responses;
        this.callSlots = callSlots;
        this.paths = paths;
        this.journal = journal;
        this.turns = turns;
        this.items = items;
        this.workspaces = workspaces;
    }

    /**
     * Deletes up to {@code limit} finished runs of {@code kind} created after {@code after} and
     * older than {@code cutoff}, with what belongs to them alone, then their turns left without a
     * run; returns those found, oldest first.
     */
    public List<AgedRun> pruneRuns(RunKind kind, long after, long cutoff, int limit) {
        List<AgedRun> aged = runs.aged(RunColumns.KIND, kind.wire(), RunColumns.TURN, after, cutoff, limit);
        if (aged.isEmpty()) {
            return aged;
        }
        List<String> ids = aged.stream().map(AgedRun::runId).toList();
        keys.forgetRuns(ids);
        texts.deleteOfRuns(ids);
        responses.deleteOfRuns(ids);
        callSlots.deleteMadeBy(ids);
        paths.deleteTreesOf(ids);
        runs.forget(ids);
        List<String> turnIds = aged.stream().map(AgedRun::carried).filter(t -> t != null).distinct().toList();
        Set<String> kept = runs.keysWithRuns(RunColumns.TURN, turnIds); // a turn with a younger run stays
        turns.deleteEnded(turnIds.stream().filter(t -> !kept.contains(t)).toList());
        return aged;
    }

    /** Deletes up to {@code limit} aged thread items after id {@code after}; returns their ids, in order. */
    public List<Long> pruneItems(long after, long cutoff, int limit) {
        return items.deleteOldest(after, cutoff, limit);
    }

    public int pruneJournal(long cutoff, int limit) {
        return journal.deleteOldest(cutoff, limit);
    }

    public ThreadWorkspaces.IdlePage idleWorkspaces(long cutoff, long afterId, int limit) {
        return workspaces.idle(cutoff, afterId, limit);
    }

    /**
     * Resets the thread's workspace line to its start and, while its row stays locked (no turn can
     * claim the lane before this commits), runs {@code retire} (which moves its repository aside).
     * False, and nothing done, when the thread is not idle any more.
     */
    public boolean resetWorkspace(long threadId, long cutoff, Runnable retire) {
        if (!workspaces.resetIdle(threadId, cutoff)) {
            return false;
        }
        retire.run();
        return true;
    }
}
