package dev.switchboard.core.turn;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.lane.LaneListener;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEnded;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a turn in step with its runs, inside the transaction that changes a run (whose thread row
 * is locked): a claimed run reports {@code running}, a finished run emits its reply, and the turn
 * ends — exactly once — when its last run ends, as {@link TurnOutcome} decides; then
 * {@link TurnEnded} is fired in the same transaction. The lanes call it as their {@link LaneListener}.
 */
@ApplicationScoped
public class TurnTracker implements LaneListener {

    @Inject
    ThreadRepository repository;

    @Inject
    TurnEvents events;

    @Inject
    InstanceClock clock;

    @Inject
    Event<TurnEnded> ended;

    @Override
    public void runStarted(RunRecord run) {
        TurnRecord turn = activeTurnOf(run);
        if (turn != null) {
            events.progress(turn, "running", null, run.getRunId());
        }
    }

    @Override
    public void runEnded(RunRecord run) {
        TurnRecord turn = activeTurnOf(run);
        if (turn == null) {
            return;
        }
        if (run.getState() == RunState.SUCCEEDED) {
            String reply = Lifecycle.replyText(run.getOutputJson());
            if (reply != null && !reply.isEmpty()) {
                events.assistantItem(turn, reply);
            }
        }
        settle(turn);
    }

    /** Ends the turn if none of its runs is unfinished. */
    public void settle(TurnRecord turn) {
        if (!turn.isActive()) {
            return;
        }
        // No flush first: the managed copies carry this transaction's changes, and no caller
        // settles a turn it has just added a run to.
        List<RunRecord> runs = repository.runsOfUnflushed(turn.getTurnId());
        Optional<TurnOutcome> ending = TurnOutcome.of(runs.stream()
                .map(r -> new TurnOutcome.RunResult(r.getState(), r.getErrorCode(), r.getErrorMessage(),
                        r.getState() == RunState.SUCCEEDED ? Lifecycle.replyText(r.getOutputJson()) : null))
                .toList());
        if (ending.isEmpty()) {
            return;
        }
        Instant now = clock.now();
        turn.end(ending.get().outcome(), ending.get().message(), now.toEpochMilli());
        if (ending.get().isCompleted()) {
            events.completed(turn, now);
        } else {
            events.interrupted(turn, now);
        }
        if (!runs.isEmpty()) {
            RunRecord first = runs.get(0);
            ended.fire(new TurnEnded(turn.getTurnId(), turn.getUserKey(), turn.getOutcome(), turn.getMessage(),
                    first.getRunId(), first.getSource(), first.getCreatedAt()));
        }
    }

    private TurnRecord activeTurnOf(RunRecord run) {
        if (run.getTurnId() == null) {
            return null;
        }
        TurnRecord turn = repository.turn(run.getTurnId());
        return turn != null && turn.isActive() ? turn : null;
    }
}
