package dev.switchboard.core.run;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lane.LaneHead;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.thread.ThreadLedger;
import dev.switchboard.persistence.run.IngestRecord;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.thread.ThreadRecord;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The run store's transactions; {@link RunService} orchestrates them. */
@Stateless
public class RunLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    LaneHead lanes;

    @Inject
    TurnEvents events;

    @Inject
    InstanceClock clock;

    @EJB
    ThreadLedger threads;

    /**
     * Stores the message as a queued run, or returns the run its idempotency key already names.
     * The thread row is locked first: it hands out the per-thread sequence number, and it makes
     * concurrent duplicates of one key wait for each other instead of racing. When
     * {@code claimFor} names this instance (which has reserved a slot) and the lane is idle, the
     * lane head is claimed in the same transaction, saving the claim a wake-up would cost.
     */
    public IngestOutcome ingest(MessageCommand command, long threadId, String claimFor) {
        LaneHead.Locked lane = lanes.lock(threadId);
        ThreadRecord thread = lane.thread();
        String fingerprint = command.fingerprint();
        IngestRecord.Key key = command.idempotencyKey() == null ? null
                : new IngestRecord.Key(command.userKey(), command.source(), command.idempotencyKey());
        if (key != null) {
            IngestRecord existing = em.find(IngestRecord.class, key);
            if (existing != null) {
                return deduplicated(existing, fingerprint);
            }
        }
        long now = clock.millis();
        TurnRecord turn = new TurnRecord(TurnIds.turnId(), command.userKey(), threadId, command.threadKey(), now);
        em.persist(turn);
        RunRecord run = new RunRecord(UUID.randomUUID().toString(), threadId, thread.takeNextSeq(),
                command.userKey(), command.threadKey(), command.source(), command.externalUserKey(),
                command.deliveryMode(), command.text(), fingerprint, now, turn.getTurnId(), null);
        em.persist(run);
        events.opened(turn, List.of(Lifecycle.userMessage(command.text())), run.getRunId());
        if (key != null) {
            em.flush(); // the run row first: the idempotency record references it
            em.persist(new IngestRecord(key, run.getRunId(), fingerprint, now));
        }
        ClaimResult claim = claimFor == null ? ClaimResult.none() : lanes.claim(lane, claimFor, run);
        em.flush();
        return new IngestOutcome(RunView.of(run), threadId, false, claim);
    }

    /** Resolves a key whose first ingest committed concurrently with ours. */
    public Optional<IngestOutcome> findByKey(MessageCommand command) {
        IngestRecord existing = em.find(IngestRecord.class,
                new IngestRecord.Key(command.userKey(), command.source(), command.idempotencyKey()));
        return existing == null ? Optional.empty() : Optional.of(deduplicated(existing, command.fingerprint()));
    }

    private IngestOutcome deduplicated(IngestRecord existing, String fingerprint) {
        if (!existing.getPayloadHash().equals(fingerprint)) {
            throw new IdempotencyConflictException(existing.getRunId());
        }
        RunRecord run = em.find(RunRecord.class, existing.getRunId());
        return new IngestOutcome(RunView.of(run), run.getThreadId(), true);
    }

    public Optional<RunView> find(String userKey, String runId) {
        RunRecord run = em.find(RunRecord.class, runId);
        return run == null || !run.getUserKey().equals(userKey) ? Optional.empty() : Optional.of(RunView.of(run));
    }

    /** Null when the user has no such thread. */
    public RunPage page(String userKey, String threadKey, long afterSeq, int limit) {
        Optional<ThreadRecord> thread = threads.find(userKey, threadKey);
        if (thread.isEmpty()) {
            return null;
        }
        List<RunView> runs = em.createNamedQuery(RunRecord.BY_THREAD_PAGE, RunRecord.class)
                .setParameter("threadId", thread.get().getId())
                .setParameter("afterSeq", afterSeq)
                .setMaxResults(limit + 1)
                .getResultList().stream().map(RunView::of).toList();
        if (runs.size() > limit) {
            List<RunView> page = runs.subList(0, limit);
            return new RunPage(page, page.get(limit - 1).threadSeq());
        }
        return new RunPage(runs, null);
    }
}
