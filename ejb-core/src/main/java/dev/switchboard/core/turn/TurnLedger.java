package dev.switchboard.core.turn;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.idempotency.PayloadFingerprint;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lane.LaneHead;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.runtime.ServeRuntime;
import dev.switchboard.persistence.run.IngestRecord;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.ThreadRecord;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonReader;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The turn calls' transactions. Each locks the thread row first — the lane lock every run change
 * takes — so a turn's runs, the lane's queue and the notifications reporting them change together.
 */
@Stateless
public class TurnLedger {

    static final String SOURCE = "rpc";
    static final String USER_INTERRUPT = "turn interrupted by user request";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    TurnSettings settings;

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


    /** What a turn call changed; {@code claim} is a run claimed for this instance, {@code stopped} runs to stop here. */
    public record Outcome(TurnView turn, long threadId, boolean deduplicated, int acceptedItems, ClaimResult claim,
            List<String> stopped) {
    }

    /** {@code turn/start}: a new turn with one run, queued in the thread's lane under the follow-up policy. */
    public Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey, long threadId,
            String claimFor) {
        LaneHead.Locked lane = lanes.lock(threadId);
        ThreadRecord thread = lane.thread();
        String fingerprint = PayloadFingerprint.of(threadKey, input.toJson().toString(), "turn");
        IngestRecord.Key key = idempotencyKey == null ? null : new IngestRecord.Key(userKey, SOURCE, idempotencyKey);
        if (key != null) {
            IngestRecord existing = em.find(IngestRecord.class, key);
            if (existing != null) {
                if (!existing.getPayloadHash().equals(fingerprint)) {
                    throw new IdempotencyConflictException(existing.getRunId());
                }
                RunRecord run = em.find(RunRecord.class, existing.getRunId());
                TurnRecord turn = em.find(TurnRecord.class, run.getTurnId());
                return new Outcome(TurnView.of(turn), threadId, true, 0, ClaimResult.none(), List.of());
            }
        }
        List<TurnRecord> active = em.createNamedQuery(TurnRecord.ACTIVE_ON_THREAD, TurnRecord.class)
                .setParameter("threadId", threadId)
                .getResultList();
        String turnId = TurnIds.turnId();
        if (active.size() >= settings.maxQueuedTurns()) {
            throw new TurnRejectedException(TurnRejectedException.Reason.QUEUE_FULL,
                    TurnPolicy.queueFullMessage(threadKey, settings.maxQueuedTurns()));
        }
        runtime.turnStarting(userKey, threadKey);
        TurnPolicy policy = settings.followupPolicy();
        List<String> stopped = new ArrayList<>();
        TurnInput carried = null;
        long now = clock.millis();
        for (TurnRecord older : active) {
            List<RunRecord> runs = runsOf(older);
            switch (policy.effectOn(hasStarted(runs))) {
                case SUPERSEDE -> {
                    for (RunRecord run : runs) {
                        if (policy.carriesInputForward()) {
                            carried = carried == null ? inputOf(run) : carried.then(inputOf(run));
                        }
                        run.fail("superseded", policy.supersededReason(), now);
                    }
                    if (policy.carriesInputForward()) {
                        older.mergeInto(turnId);
                    }
                    tracker.settle(older);
                }
                case INTERRUPT -> stopped.addAll(interrupt(thread, older, runs, policy.supersededReason(), now));
                case KEEP -> {
                }
            }
        }
        TurnInput full = carried == null ? input : carried.then(input);
        TurnRecord turn = new TurnRecord(turnId, userKey, threadId, threadKey, now);
        em.persist(turn);
        RunRecord run = newRun(thread, turn, full, fingerprint, now);
        if (key != null) {
            em.flush(); // the run row first: the idempotency record references it
            em.persist(new IngestRecord(key, run.getRunId(), fingerprint, now));
        }
        events.opened(turn, full.messages(), run.getRunId());
        ClaimResult claim = claim(lane, claimFor, run);
        em.flush();
        return new Outcome(TurnView.of(turn), threadId, false, full.size(), claim, stopped);
    }

    /** {@code turn/steer}: another run under the same turn, queued behind the lane's current work. */
    public Outcome steer(String userKey, String turnId, TurnInput input, String claimFor) {
        LaneHead.Locked lane = lockedActiveTurn(userKey, turnId);
        TurnRecord turn = em.find(TurnRecord.class, turnId);
        ThreadRecord thread = lane.thread();
        String fingerprint = PayloadFingerprint.of(turn.getThreadKey(), input.toJson().toString(), "steer");
        RunRecord run = newRun(thread, turn, input, fingerprint, clock.millis());
        events.queued(turn, input.messages(), run.getRunId());
        ClaimResult claim = claim(lane, claimFor, run);
        em.flush();
        return new Outcome(TurnView.of(turn), thread.getId(), false, input.size(), claim, List.of());
    }

    /**
     * {@code turn/interrupt} of one turn: its runs end {@code interrupted} now (an executing one
     * releases the lane; its engine is stopped by the caller and a late result is fenced out). If
     * the turn was running, the lane's turns that have not started are skipped too, as in Holon.
     */
    public Outcome interrupt(String userKey, String turnId, String message) {
        LaneHead.Locked lane = lockedActiveTurn(userKey, turnId);
        TurnRecord turn = em.find(TurnRecord.class, turnId);
        ThreadRecord thread = lane.thread();
        long now = clock.millis();
        List<RunRecord> runs = runsOf(turn);
        boolean wasRunning = runs.stream().anyMatch(r -> r.getState() == RunState.EXECUTING);
        List<String> stopped = interrupt(thread, turn, runs, message, now);
        if (wasRunning) {
            for (TurnRecord other : em.createNamedQuery(TurnRecord.ACTIVE_ON_THREAD, TurnRecord.class)
                    .setParameter("threadId", thread.getId()).getResultList()) {
                List<RunRecord> otherRuns = runsOf(other);
                if (!hasStarted(otherRuns)) {
                    otherRuns.forEach(r -> r.fail("superseded", USER_INTERRUPT, now));
                    tracker.settle(other);
                }
            }
        }
        em.flush();
        return new Outcome(TurnView.of(turn), thread.getId(), false, 0, ClaimResult.none(), stopped);
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
        events.progress(turn, "cancel_requested", message, null);
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

    /** A turn has started once any of its runs has left the queue. */
    private static boolean hasStarted(List<RunRecord> runs) {
        return runs.stream().anyMatch(r -> r.getState() != RunState.QUEUED);
    }

    /** Locks the lane of the user's active turn {@code turnId} (then re-reads the turn under the lock). */
    private LaneHead.Locked lockedActiveTurn(String userKey, String turnId) {
        TurnRecord turn = em.find(TurnRecord.class, turnId);
        if (turn == null || !turn.getUserKey().equals(userKey)) {
            throw notActive();
        }
        LaneHead.Locked lane = lanes.lock(turn.getThreadId());
        em.refresh(turn);
        if (!turn.isActive()) {
            throw notActive();
        }
        return lane;
    }

    private static TurnRejectedException notActive() {
        return new TurnRejectedException(TurnRejectedException.Reason.NOT_ACTIVE, "turn_id is not active");
    }

    private RunRecord newRun(ThreadRecord thread, TurnRecord turn, TurnInput input, String fingerprint, long now) {
        RunRecord run = new RunRecord(UUID.randomUUID().toString(), thread.getId(), thread.takeNextSeq(),
                turn.getUserKey(), turn.getThreadKey(), SOURCE, null, "followUp", input.text(), fingerprint, now,
                turn.getTurnId(), input.toJson().toString());
        em.persist(run);
        return run;
    }

    /** Claims the lane for {@code claimFor} (if any) right after {@code added} was persisted. */
    private ClaimResult claim(LaneHead.Locked lane, String claimFor, RunRecord added) {
        return claimFor == null ? ClaimResult.none() : lanes.claim(lane, claimFor, added);
    }

    private List<RunRecord> runsOf(TurnRecord turn) {
        return em.createNamedQuery(RunRecord.BY_TURN, RunRecord.class)
                .setParameter("turnId", turn.getTurnId())
                .getResultList();
    }

    static TurnInput inputOf(RunRecord run) {
        if (run.getInputJson() == null) {
            return TurnInput.ofText(run.getInputText());
        }
        try (JsonReader reader = Jsons.createReader(new StringReader(run.getInputJson()))) {
            return TurnInput.fromJson(reader.readArray());
        }
    }
}
