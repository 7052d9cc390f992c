package dev.switchboard.core.turn;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.idempotency.PayloadFingerprint;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lane.LaneHead;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.lifecycle.TurnOpened;
import dev.switchboard.core.lifecycle.TurnRef;
import dev.switchboard.core.runtime.ServeRuntime;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.ThreadRecord;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.ejb.Stateless;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The turn calls' transactions. Each locks the thread row first — the lane lock every run change
 * takes — so a turn's runs, the lane's queue and the notifications reporting them change together.
 */
@Stateless
public class TurnLedger {

    /** The source of the runs of RPC turns. */
    public static final String SOURCE = "rpc";
    /**
     * The source of the runs of a person's chat messages: a door of its own, so that the chat
     * queue's merging (and the RPC follow-up policy) each act only on their own door's turns.
     */
    public static final String CHAT_SOURCE = "chat";
    static final String USER_INTERRUPT = "turn interrupted by user request";

    @Inject
    ThreadRepository repository;

    @Inject
    IdempotencyKeys keys;

    @Inject
    LaneHead lanes;

    @Inject
    TurnTracker tracker;

    @Inject
    InstanceClock clock;

    @Inject
    ServeRuntime runtime;

    @Inject
    TurnEvents events;

    @Inject
    Event<TurnOpened> opened;

    /**
     * What a turn call changed; {@code claim} is a run claimed for this instance, {@code stopped}
     * runs to stop here, {@code waitingFor} the active turns a new turn queued behind.
     */
    public record Outcome(TurnView turn, long threadId, boolean deduplicated, int acceptedItems, ClaimResult claim,
            List<String> stopped, int waitingFor) {
    }

    /** {@code turn/start}: a new turn with one run, queued in the thread's lane as {@code rule} admits it. */
    public Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey, long threadId,
            String claimFor, TurnAdmission.Rule rule) {
        return start(userKey, threadKey, input, idempotencyKey, threadId, claimFor, rule, TurnDoor.RPC);
    }

    /** As above, through {@code door} (chat, or the server's own turns, such as a resumed tool loop). */
    public Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey, long threadId,
            String claimFor, TurnAdmission.Rule rule, TurnDoor door) {
        ThreadRepository.Locked lane = repository.lock(threadId);
        ThreadRecord thread = lane.thread();
        String fingerprint = PayloadFingerprint.of(threadKey, input.toJson().toString(), "turn");
        var replayed = keys.replayOf(userKey, SOURCE, idempotencyKey, fingerprint);
        if (replayed.isPresent()) {
            TurnRecord turn = repository.turn(repository.run(replayed.get()).getTurnId());
            return new Outcome(TurnView.of(turn), threadId, true, 0, ClaimResult.none(), List.of(), 0);
        }
        List<TurnRecord> active = repository.activeTurns(threadId);
        Map<String, List<RunRecord>> runs = new HashMap<>();
        List<TurnAdmission.Active> facts = new ArrayList<>();
        for (TurnRecord older : active) {
            List<RunRecord> its = repository.runsOf(older.getTurnId());
            runs.put(older.getTurnId(), its);
            facts.add(new TurnAdmission.Active(older.getTurnId(), hasStarted(its), cameThrough(its, door),
                    () -> its.stream().map(TurnLedger::inputOf).toList()));
        }
        TurnAdmission admission = rule.decide(threadKey, facts, input);
        runtime.turnStarting(userKey, threadKey);
        String turnId = TurnIds.turnId();
        List<String> stopped = new ArrayList<>();
        long now = clock.millis();
        for (TurnRecord older : active) {
            List<RunRecord> its = runs.get(older.getTurnId());
            if (admission.superseded().contains(older.getTurnId())) {
                its.forEach(run -> run.fail("superseded", admission.reason(), now));
                if (admission.merged()) {
                    older.mergeInto(turnId);
                }
                tracker.settle(older);
            } else if (admission.interrupted().contains(older.getTurnId())) {
                stopped.addAll(interrupt(thread, older, its, admission.reason(), now));
            }
        }
        TurnInput full = admission.input();
        TurnRecord turn = new TurnRecord(turnId, userKey, threadId, threadKey, now);
        repository.add(turn);
        RunRecord run = newRun(thread, turn, full, fingerprint, now, door);
        keys.remember(userKey, SOURCE, idempotencyKey, run.getRunId(), fingerprint, now);
        events.opened(TurnRef.of(turn), full.messages(), run.getRunId());
        opened.fire(new TurnOpened(userKey, threadKey, turnId, run.getRunId(), full.toJson(), now));
        ClaimResult claim = claim(threadId, claimFor);
        int waitingFor = active.size() - admission.superseded().size() - admission.interrupted().size();
        return new Outcome(TurnView.of(turn), threadId, false, full.size(), claim, stopped, waitingFor);
    }

    /** {@code turn/steer}: another run under the same turn, queued behind the lane's current work. */
    public Outcome steer(String userKey, String turnId, TurnInput input, String claimFor) {
        ThreadRepository.Locked lane = lockedActiveTurn(userKey, turnId);
        TurnRecord turn = repository.turn(turnId);
        ThreadRecord thread = lane.thread();
        String fingerprint = PayloadFingerprint.of(turn.getThreadKey(), input.toJson().toString(), "steer");
        RunRecord run = newRun(thread, turn, input, fingerprint, clock.millis(), TurnDoor.RPC);
        events.queued(TurnRef.of(turn), input.messages(), run.getRunId());
        ClaimResult claim = claim(thread.getId(), claimFor);
        return new Outcome(TurnView.of(turn), thread.getId(), false, input.size(), claim, List.of(), 0);
    }

    /**
     * {@code turn/interrupt} of one turn: its runs end {@code interrupted} now (an executing one
     * releases the lane; its engine is stopped by the caller and a late result is fenced out). If
     * the turn was running, the lane's turns that have not started are skipped too, as in Holon.
     */
    public Outcome interrupt(String userKey, String turnId, String message) {
        ThreadRepository.Locked lane = lockedActiveTurn(userKey, turnId);
        TurnRecord turn = repository.turn(turnId);
        ThreadRecord thread = lane.thread();
        long now = clock.millis();
        List<RunRecord> runs = repository.runsOf(turnId);
        boolean wasRunning = runs.stream().anyMatch(r -> r.getState() == RunState.EXECUTING);
        List<String> stopped = interrupt(thread, turn, runs, message, now);
        if (wasRunning) {
            for (TurnRecord other : repository.activeTurns(thread.getId())) {
                List<RunRecord> otherRuns = repository.runsOf(other.getTurnId());
                if (!hasStarted(otherRuns)) {
                    otherRuns.forEach(r -> r.fail("superseded", USER_INTERRUPT, now));
                    tracker.settle(other);
                }
            }
        }
        repository.flush();
        return new Outcome(TurnView.of(turn), thread.getId(), false, 0, ClaimResult.none(), stopped, 0);
    }

    /** Holon's untargeted {@code turn/interrupt}: pauses the runtime; returns the fresh turn id reported. */
    public String interruptRuntime(String userKey, String message) {
        if (!runtime.pause(userKey)) {
            throw new TurnRejectedException(TurnRejectedException.Reason.ALREADY_PAUSED,
                    "failed to interrupt: already paused");
        }
        String turnId = TurnIds.turnId();
        events.untargetedInterrupt(userKey, turnId, clock.now(), message);
        return turnId;
    }

    private List<String> interrupt(ThreadRecord thread, TurnRecord turn, List<RunRecord> runs, String message,
            long now) {
        events.progress(TurnRef.of(turn), "cancel_requested", message, null);
        List<String> stopped = new ArrayList<>();
        for (RunRecord run : runs) {
            if (run.getState().isTerminal()) {
                continue;
            }
            if (run.getState() == RunState.EXECUTING) {
                stopped.add(run.getRunId());
                if (run.getRunId().equals(thread.getLeaseRunId())) {
                    thread.releaseLease();
                }
            }
            run.fail("interrupted", message, now);
        }
        tracker.settle(turn);
        return stopped;
    }

    /**
     * Whether a turn's runs came through {@code door}: its first run's kind (a turn steered over RPC
     * is still the turn its first run opened). The server's own turns — a resumed tool loop, a
     * compaction's summary — have kinds no client door has.
     */
    private static boolean cameThrough(List<RunRecord> runs, TurnDoor door) {
        return !runs.isEmpty() && door.kind() == runs.get(0).getKind();
    }

    /** A turn has started once any of its runs has left the queue. */
    private static boolean hasStarted(List<RunRecord> runs) {
        return runs.stream().anyMatch(r -> r.getState() != RunState.QUEUED);
    }

    /** Locks the lane of the user's active turn {@code turnId} (then re-reads the turn under the lock). */
    private ThreadRepository.Locked lockedActiveTurn(String userKey, String turnId) {
        TurnRecord turn = repository.turn(turnId);
        if (turn == null || !turn.getUserKey().equals(userKey)) {
            throw notActive();
        }
        ThreadRepository.Locked lane = repository.lock(turn.getThreadId());
        repository.reread(turn);
        if (!turn.isActive()) {
            throw notActive();
        }
        return lane;
    }

    private static TurnRejectedException notActive() {
        return new TurnRejectedException(TurnRejectedException.Reason.NOT_ACTIVE, "turn_id is not active");
    }

    private RunRecord newRun(ThreadRecord thread, TurnRecord turn, TurnInput input, String fingerprint, long now,
            TurnDoor door) {
        RunRecord run = new RunRecord(UUID.randomUUID().toString(), thread.getId(), thread.takeNextSeq(),
                turn.getUserKey(), turn.getThreadKey(), door.source(), door.kind(), null, "followUp", input.text(), fingerprint, now,
                turn.getTurnId(), input.toJson().toString());
        repository.add(run);
        return run;
    }

    /** Writes this transaction's changes, then claims the lane for {@code claimFor} (if any). */
    private ClaimResult claim(long threadId, String claimFor) {
        if (claimFor == null) {
            repository.flush();
            return ClaimResult.none();
        }
        return lanes.claimFlushed(threadId, claimFor);
    }

    static TurnInput inputOf(RunRecord run) {
        return TurnInput.stored(run.getInputJson(), run.getInputText());
    }
}
