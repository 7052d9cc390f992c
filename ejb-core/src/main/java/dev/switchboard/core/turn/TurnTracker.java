package dev.switchboard.core.turn;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.history.ConversationItems;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.lane.LaneListener;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEnded;
import dev.switchboard.core.lifecycle.TurnEndings;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnRef;
import dev.switchboard.core.lane.LaneRun;
import dev.switchboard.core.lane.RunEnd;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.persistence.run.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a turn in step with its runs, inside the transaction that changes a run (whose thread row
 * is locked): a claimed run reports {@code running}, a finished run emits its reply and adds its
 * input and reply to the thread's history ({@link ThreadItems}), and the turn
 * ends — exactly once — when its last run ends, as {@link TurnOutcome} decides; then every
 * {@link TurnEndings} is told, in order, in the same transaction. The lanes call it as their {@link LaneListener};
 * it reads and writes the turn through {@link TurnRows}, on the lane's connection.
 */
@ApplicationScoped
public class TurnTracker implements LaneListener {

    @Inject
    TurnRows turns;

    @Inject
    TurnRuns turnRuns;

    @Inject
    TurnEvents events;

    @Inject
    ThreadItems items;

    @Inject
    InstanceClock clock;

    @Inject
    @Any
    Instance<TurnEndings> endingBeans;

    /** The features told of a turn's end, in their order; found at first use. */
    private volatile List<TurnEndings> endings;

    @Override
    public void runStarted(LaneRun run) {
        RunContent content = RunContent.of(run);
        if (content.turnActive()) {
            events.progress(refOf(content), "running", null, run.runId());
        }
    }

    /**
     * Emits the run's reply and ends its turn if that was the turn's last unfinished run. A turn of
     * this one run (as most are) is settled from what the lane read with the run, without reading
     * the turn again.
     */
    @Override
    public void runEnded(LaneRun lane, RunEnd end) {
        RunContent run = RunContent.of(lane);
        if (run.turnId() == null || !run.turnActive()) {
            return;
        }
        String reply = end.state() == RunState.SUCCEEDED ? Lifecycle.replyText(end.outputJson()) : null;
        if (reply != null && !reply.isEmpty()) {
            events.assistantItem(refOf(run), reply);
        }
        if (end.isEngineResult()) { // what the engine saw and answered joins the history
            items.append(lane.threadId(), lane.runId(), run.turnId(), ConversationItems.ofRun(
                    TurnInput.stored(run.inputJson(), run.inputText()).messages(),
                    ConversationItems.steps(end.outputJson()), reply), clock.millis());
        }
        if (run.turnRuns() == 1) {
            settle(new TurnRuns.ActiveTurn(run.turnId(), run.userKey(), run.threadKey(), run.turnStartedAt(),
                    run.turnMergedInto(), List.of(new TurnRuns.TurnRun(lane.runId(), run.kind(), lane.createdAt(),
                            end.state(), end.errorCode(), end.errorMessage(), end.outputJson()))));
        } else {
            settle(turnRuns.activeTurn(run.turnId()));
        }
    }

    /** Ends the turn, if it is active and none of its runs is unfinished (a turn call changed its runs). */
    public void settle(String turnId) {
        settle(turnRuns.activeTurn(turnId));
    }

    /** Ends the turn (null: not active) if none of its runs is unfinished. */
    private void settle(TurnRuns.ActiveTurn turn) {
        if (turn == null) {
            return;
        }
        String turnId = turn.turnId();
        Optional<TurnOutcome> ending = TurnOutcome.of(turn.runs().stream()
                .map(r -> new TurnOutcome.RunResult(r.state(), r.errorCode(), r.errorMessage(),
                        r.state() == RunState.SUCCEEDED ? Lifecycle.replyText(r.outputJson()) : null))
                .toList());
        if (ending.isEmpty()) {
            return;
        }
        TurnOutcome outcome = ending.get();
        Instant now = clock.now();
        turns.end(turnId, outcome.isCompleted(),
                outcome.outcome(), outcome.message(), now.toEpochMilli());
        TurnRef ref = new TurnRef(turnId, turn.userKey(), turn.threadKey(), turn.startedAt());
        if (outcome.isCompleted()) {
            events.completed(ref, now, outcome.message());
        } else {
            events.interrupted(ref, now, outcome.outcome(), outcome.message(), turn.mergedInto());
        }
        if (!turn.runs().isEmpty()) {
            TurnRuns.TurnRun first = turn.runs().get(0);
            TurnEnded ended = new TurnEnded(turnId, turn.userKey(), turn.threadKey(), outcome.outcome(),
                    outcome.message(), first.runId(), first.kind(), first.createdAt());
            for (TurnEndings observer : endings()) {
                observer.turnEnded(ended);
            }
        }
    }

    private List<TurnEndings> endings() {
        List<TurnEndings> found = endings;
        if (found == null) {
            found = endingBeans.stream().sorted(Comparator.comparingInt(TurnEndings::order)).toList();
            endings = found;
        }
        return found;
    }

    private static TurnRef refOf(RunContent run) {
        return new TurnRef(run.turnId(), run.userKey(), run.threadKey(), run.turnStartedAt());
    }
}
