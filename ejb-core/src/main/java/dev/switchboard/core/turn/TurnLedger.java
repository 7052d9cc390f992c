package dev.switchboard.core.turn;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.execution.StoredRuns.StoredRun;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.idempotency.PayloadFingerprint;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.LaneHead;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.lane.NewRun;
import dev.switchboard.core.lane.RunEnd;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.lifecycle.TurnOpened;
import dev.switchboard.core.lifecycle.TurnRef;
import dev.switchboard.core.runtime.ServeRuntime;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.persistence.run.RunState;
import jakarta.ejb.Stateless;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
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
    StoredRuns runs;

    @Inject
    Lanes threadLanes;

    @Inject
    TurnRows turns;

    @Inject
    TurnRuns turnRuns;

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
     * runs to stop here, {@code waitingFor} the active turns a new turn queued behind;
     * {@code movesSession}: the user's runtime is to take the turn's thread as its session once the
     * turn is committed ({@link #moveSession}).
     */
    public record Outcome(TurnView turn, long threadId, boolean deduplicated, int acceptedItems, ClaimResult claim,
            List<String> stopped, int waitingFor, boolean movesSession) {

        Outcome(TurnView turn, long threadId, boolean deduplicated, int acceptedItems, ClaimResult claim,
                List<String> stopped, int waitingFor) {
            this(turn, threadId, deduplicated, acceptedItems, claim, stopped, waitingFor, false);
        }
    }

    /** {@code turn/start}: a new turn with one run, queued in the thread's lane as {@code rule} admits it. */
    public Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey, long threadId,
            String claimFor, TurnAdmission.Rule rule) {
        return start(userKey, threadKey, input, idempotencyKey, threadId, claimFor, rule, TurnDoor.RPC);
    }

    /** As above, through {@code door} (chat, or the server's own turns, such as a resumed tool loop). */
    public Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey, long threadId,
            String claimFor, TurnAdmission.Rule rule, TurnDoor door) {
        Lane lane = locked(threadId);
        String fingerprint = PayloadFingerprint.of(threadKey, input.toJson().toString(), "turn");
        var replayed = keys.replayOf(userKey, SOURCE, idempotencyKey, fingerprint);
        if (replayed.isPresent()) {
            TurnRows.TurnRow turn = turns.read(runs.run(replayed.get()).map(StoredRun::turnId)
                    .orElse(null));
            return new Outcome(TurnView.of(turn), threadId, true, 0, ClaimResult.none(), List.of(), 0);
        }
        List<TurnRuns.OpenTurn> active = turnRuns.openOnThread(threadId);
        List<TurnAdmission.Active> facts = new ArrayList<>();
        for (TurnRuns.OpenTurn older : active) {
            facts.add(new TurnAdmission.Active(older.turnId(), hasStarted(older.runs()), cameThrough(older.runs(), door),
                    () -> older.runs().stream().map(TurnLedger::inputOf).toList()));
        }
        TurnAdmission admission = rule.decide(threadKey, facts, input);
        // Only a paused runtime (or a user's first) is locked here: it resumes with the turn (H10). A running
        // one takes the thread as its session after the commit, so one user's turns on different threads
        // never wait for each other on the runtime's row.
        boolean movesSession = runtime.turnStarting(userKey, threadKey) == ServeRuntime.TurnStart.MOVE_SESSION;
        String turnId = TurnIds.turnId();
        List<String> stopped = new ArrayList<>();
        long now = clock.millis();
        for (TurnRuns.OpenTurn older : active) {
            if (admission.superseded().contains(older.turnId())) {
                if (admission.merged()) { // before its runs end: the turn ends naming what it was merged into
                    turns.mergeInto(older.turnId(), turnId);
                }
                lane = skip(lane, older.runs(), admission.reason());
                tracker.settle(older.turnId());
            } else if (admission.interrupted().contains(older.turnId())) {
                lane = interrupt(lane, new TurnRef(older.turnId(), older.userKey(), older.threadKey(), older.startedAt()),
                        older.runs(), admission.reason(), stopped);
            }
        }
        TurnInput full = admission.input();
        TurnRef turn = new TurnRef(turnId, userKey, threadKey, now);
        turns.insert(turnId, userKey, threadId, threadKey, now);
        NewRun run = newRun(lane, turn, full, fingerprint, now, door);
        Lane added = threadLanes.enqueue(lane, run);
        keys.remember(userKey, SOURCE, idempotencyKey, run.runId(), fingerprint, now);
        events.opened(turn, full.messages(), run.runId());
        opened.fire(new TurnOpened(userKey, threadKey, turnId, run.runId(), full.toJson(), now));
        ClaimResult claim = claim(added, claimFor);
        int waitingFor = active.size() - admission.superseded().size() - admission.interrupted().size();
        return new Outcome(TurnView.started(turnId, threadKey, now), threadId, false, full.size(), claim, stopped,
                waitingFor, movesSession);
    }

    /** {@code turn/steer}: another run under the same turn, queued behind the lane's current work. */
    public Outcome steer(String userKey, String turnId, TurnInput input, String claimFor) {
        Locked locked = lockedActiveTurn(userKey, turnId);
        TurnRows.TurnRow turn = locked.turn();
        Lane lane = locked.lane();
        TurnRef ref = refOf(turn);
        String fingerprint = PayloadFingerprint.of(turn.threadKey(), input.toJson().toString(), "steer");
        NewRun run = newRun(lane, ref, input, fingerprint, clock.millis(), TurnDoor.RPC);
        Lane added = threadLanes.enqueue(lane, run);
        events.queued(ref, input.messages(), run.runId());
        ClaimResult claim = claim(added, claimFor);
        return new Outcome(TurnView.of(turn), turn.threadId(), false, input.size(), claim, List.of(), 0);
    }

    /**
     * {@code turn/interrupt} of one turn: its runs end {@code interrupted} now (an executing one
     * releases the lane; its engine is stopped by the caller and a late result is fenced out). If
     * the turn was running, the lane's turns that have not started are skipped too, as in Holon.
     */
    public Outcome interrupt(String userKey, String turnId, String message) {
        Locked locked = lockedActiveTurn(userKey, turnId);
        TurnRows.TurnRow turn = locked.turn();
        long threadId = turn.threadId();
        Lane lane = locked.lane();
        List<TurnRuns.TurnRunInput> runs = turnRuns.runsOf(turnId);
        boolean wasRunning = runs.stream().anyMatch(r -> r.state() == RunState.EXECUTING);
        List<String> stopped = new ArrayList<>();
        lane = interrupt(lane, refOf(turn), runs, message, stopped);
        if (wasRunning) {
            for (TurnRuns.OpenTurn other : turnRuns.openOnThread(threadId)) {
                if (!hasStarted(other.runs())) {
                    lane = skip(lane, other.runs(), USER_INTERRUPT);
                    tracker.settle(other.turnId());
                }
            }
        }
        return new Outcome(TurnView.of(turns.read(turnId)), threadId, false, 0, ClaimResult.none(), stopped, 0);
    }

    /**
     * The running runtime takes {@code threadKey}, where a turn just started, as its session — in a
     * transaction of its own, after the turn's; skipped when another transaction holds the runtime's
     * row (a concurrent turn start, pause or resume, whose change then stands).
     */
    public void moveSession(String userKey, String threadKey) {
        runtime.moveSession(userKey, threadKey);
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

    /**
     * Ends the turn's unfinished runs {@code interrupted} through the lane, adding the executing
     * ones to {@code stopped}; an executing run that holds the lane's lease releases it. Returns the
     * lane as it is then.
     */
    private Lane interrupt(Lane lane, TurnRef turn, List<TurnRuns.TurnRunInput> runs, String message,
            List<String> stopped) {
        events.progress(turn, "cancel_requested", message, null);
        runs.stream().filter(r -> r.state() == RunState.EXECUTING).map(TurnRuns.TurnRunInput::runId).forEach(stopped::add);
        Lane current = threadLanes.end(lane, unfinished(runs), RunEnd.failed("interrupted", message)).lane();
        tracker.settle(turn.turnId());
        return current;
    }

    /** Skips the runs of a turn that has not started: they end {@code superseded}. */
    private Lane skip(Lane lane, List<TurnRuns.TurnRunInput> runs, String reason) {
        return threadLanes.end(lane, unfinished(runs), RunEnd.failed("superseded", reason)).lane();
    }

    private static List<String> unfinished(List<TurnRuns.TurnRunInput> runs) {
        return runs.stream().filter(r -> !r.state().isTerminal()).map(TurnRuns.TurnRunInput::runId).toList();
    }

    /**
     * Whether a turn's runs came through {@code door}: its first run's kind (a turn steered over RPC
     * is still the turn its first run opened). The server's own turns — a resumed tool loop, a
     * compaction's summary — have kinds no client door has.
     */
    private static boolean cameThrough(List<TurnRuns.TurnRunInput> runs, TurnDoor door) {
        return !runs.isEmpty() && door.kind() == runs.get(0).kind();
    }

    /** A turn has started once any of its runs has left the queue. */
    private static boolean hasStarted(List<TurnRuns.TurnRunInput> runs) {
        return runs.stream().anyMatch(r -> r.state() != RunState.QUEUED);
    }

    /** The user's active turn and its lane, locked. */
    private record Locked(TurnRows.TurnRow turn, Lane lane) {
    }

    /** Locks the lane of the user's active turn {@code turnId}, then reads the turn again under the lock. */
    private Locked lockedActiveTurn(String userKey, String turnId) {
        TurnRows.TurnRow read = turns.read(turnId);
        if (read == null || !read.userKey().equals(userKey)) {
            throw notActive();
        }
        Lane lane = locked(read.threadId());
        TurnRows.TurnRow turn = turns.read(turnId); // it may have ended before the lock was taken
        if (!turn.isActive()) {
            throw notActive();
        }
        return new Locked(turn, lane);
    }

    /** Locks the lane (a thread id comes from a thread or turn that exists; threads with turns are never deleted). */
    private Lane locked(long threadId) {
        Lane lane = threadLanes.lock(threadId);
        if (lane == null) {
            throw new IllegalStateException("thread " + threadId + " is gone");
        }
        return lane;
    }

    private static TurnRejectedException notActive() {
        return new TurnRejectedException(TurnRejectedException.Reason.NOT_ACTIVE, "turn_id is not active");
    }

    private static TurnRef refOf(TurnRows.TurnRow turn) {
        return new TurnRef(turn.turnId(), turn.userKey(), turn.threadKey(), turn.startedAt());
    }

    /** The turn's new run, the lane's next (the caller enqueues it). */
    private NewRun newRun(Lane lane, TurnRef turn, TurnInput input, String fingerprint, long now,
            TurnDoor door) {
        return NewRun.queued(UUID.randomUUID().toString(), lane.threadId(), lane.nextSeq(), now, RunContent.of(
                turn.userKey(), turn.threadKey(), door.source(), door.kind(), null, "followUp", input.text(),
                input.toJson().toString(), turn.turnId(), fingerprint));
    }

    /** Saves the lane as advanced by the new run, then claims it for {@code claimFor} (if any). */
    private ClaimResult claim(Lane advanced, String claimFor) {
        threadLanes.save(advanced);
        return claimFor == null ? ClaimResult.none() : lanes.claim(advanced, claimFor);
    }

    static TurnInput inputOf(TurnRuns.TurnRunInput run) {
        return TurnInput.stored(run.inputJson(), run.inputText());
    }
}
