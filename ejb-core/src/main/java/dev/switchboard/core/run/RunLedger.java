package dev.switchboard.core.run;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.lane.LaneHead;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.lifecycle.TurnRef;
import dev.switchboard.core.thread.LaneRows;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.thread.ThreadRecord;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/** The run store's transactions; {@link RunService} orchestrates them. */
@Stateless
public class RunLedger {

    @Inject
    ThreadRepository repository;

    @Inject
    LaneRows rows;

    @Inject
    IdempotencyKeys keys;

    @Inject
    LaneHead lanes;

    @Inject
    TurnEvents events;

    @Inject
    InstanceClock clock;

    /**
     * Stores the message as a queued run, or returns the run its idempotency key already names,
     * in plain JDBC ({@link LaneRows}). The thread row is locked first: it hands out the per-thread
     * sequence number, and it makes concurrent duplicates of one key wait for each other instead
     * of racing. When {@code claimFor} names this instance (which has reserved a slot) and the
     * lane is idle, the lane head is claimed in the same transaction, saving the claim a wake-up
     * would cost.
     */
    public IngestOutcome ingest(MessageCommand command, long threadId, String claimFor) {
        LaneRows.Lane lane = rows.lock(threadId);
        IngestOutcome outcome = store(command, threadId, lane.nextSeq());
        if (outcome.deduplicated()) {
            return outcome;
        }
        rows.setNextSeq(threadId, lane.nextSeq() + 1);
        return claimFor == null ? outcome : outcome.claimed(lanes.claim(lane, claimFor));
    }

    /**
     * Stores every message of a batch in this one transaction, in order — each as
     * {@link #ingest} would, without claiming — and returns their outcomes in the same order.
     * The batch's threads are locked first, in ascending id order, so two batches over the same
     * threads wait for each other instead of deadlocking.
     *
     * @param threadIds each command's thread id, by index
     * @throws IdempotencyConflictException naming the index of the first message whose key was used with another payload
     */
    public List<IngestOutcome> ingestAll(List<MessageCommand> commands, List<Long> threadIds) {
        Map<Long, Long> nextSeqs = new TreeMap<>();
        for (long threadId : new TreeSet<>(threadIds)) {
            nextSeqs.put(threadId, rows.lock(threadId).nextSeq());
        }
        Map<Long, Long> firstSeqs = new HashMap<>(nextSeqs);
        List<IngestOutcome> outcomes = new ArrayList<>(commands.size());
        for (int i = 0; i < commands.size(); i++) {
            long threadId = threadIds.get(i);
            long seq = nextSeqs.get(threadId);
            try {
                IngestOutcome outcome = store(commands.get(i), threadId, seq);
                if (!outcome.deduplicated()) {
                    nextSeqs.put(threadId, seq + 1);
                }
                outcomes.add(outcome);
            } catch (IdempotencyConflictException e) {
                throw e.at(i);
            }
        }
        nextSeqs.forEach((threadId, next) -> {
            if (!next.equals(firstSeqs.get(threadId))) {
                rows.setNextSeq(threadId, next);
            }
        });
        return outcomes;
    }

    /** Stores the message as run {@code seq} of the lane, unless its key names an earlier run. */
    private IngestOutcome store(MessageCommand command, long threadId, long seq) {
        String fingerprint = command.fingerprint();
        Optional<String> replayed = keys.replayOf(command.userKey(), command.source(), command.idempotencyKey(),
                fingerprint);
        if (replayed.isPresent()) {
            RunRecord run = repository.run(replayed.get());
            return new IngestOutcome(RunView.of(run), run.getThreadId(), true);
        }
        long now = clock.millis();
        TurnRecord turn = new TurnRecord(TurnIds.turnId(), command.userKey(), threadId, command.threadKey(), now);
        rows.insert(turn);
        RunRecord run = new RunRecord(UUID.randomUUID().toString(), threadId, seq, command.userKey(),
                command.threadKey(), command.source(), command.externalUserKey(), command.deliveryMode(),
                command.text(), fingerprint, now, turn.getTurnId(), null);
        rows.insert(run);
        events.opened(TurnRef.of(turn), List.of(Lifecycle.userMessage(command.text())), run.getRunId());
        keys.remember(command.userKey(), command.source(), command.idempotencyKey(), run.getRunId(), fingerprint, now);
        return new IngestOutcome(RunView.of(run), threadId, false);
    }

    public Optional<RunView> find(String userKey, String runId) {
        RunRecord run = repository.run(runId);
        return run == null || !run.getUserKey().equals(userKey) ? Optional.empty() : Optional.of(RunView.of(run));
    }

    /** Null when the user has no such thread. */
    public RunPage page(String userKey, String threadKey, long afterSeq, int limit) {
        Optional<ThreadRecord> thread = repository.thread(userKey, threadKey);
        if (thread.isEmpty()) {
            return null;
        }
        List<RunView> runs = repository.runsAfter(thread.get().getId(), afterSeq, limit + 1).stream()
                .map(RunView::of).toList();
        if (runs.size() > limit) {
            List<RunView> page = runs.subList(0, limit);
            return new RunPage(page, page.get(limit - 1).threadSeq());
        }
        return new RunPage(runs, null);
    }
}
