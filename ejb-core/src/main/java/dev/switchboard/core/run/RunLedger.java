package dev.switchboard.core.run;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lane.LaneHead;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
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
import java.util.TreeSet;
import java.util.UUID;

/** The run store's transactions; {@link RunService} orchestrates them. */
@Stateless
public class RunLedger {

    @Inject
    ThreadRepository repository;

    @Inject
    IdempotencyKeys keys;

    @Inject
    LaneHead lanes;

    @Inject
    TurnEvents events;

    @Inject
    InstanceClock clock;

    /**
     * Stores the message as a queued run, or returns the run its idempotency key already names.
     * The thread row is locked first: it hands out the per-thread sequence number, and it makes
     * concurrent duplicates of one key wait for each other instead of racing. When
     * {@code claimFor} names this instance (which has reserved a slot) and the lane is idle, the
     * lane head is claimed in the same transaction, saving the claim a wake-up would cost.
     */
    public IngestOutcome ingest(MessageCommand command, long threadId, String claimFor) {
        IngestOutcome outcome = store(command, repository.lock(threadId), claimFor);
        repository.flush();
        return outcome;
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
        Map<Long, ThreadRepository.Locked> locked = new HashMap<>();
        for (long threadId : new TreeSet<>(threadIds)) {
            locked.put(threadId, repository.lock(threadId));
        }
        List<IngestOutcome> outcomes = new ArrayList<>(commands.size());
        for (int i = 0; i < commands.size(); i++) {
            try {
                outcomes.add(store(commands.get(i), locked.get(threadIds.get(i)), null));
            } catch (IdempotencyConflictException e) {
                throw e.at(i);
            }
        }
        repository.flush();
        return outcomes;
    }

    private IngestOutcome store(MessageCommand command, ThreadRepository.Locked lane, String claimFor) {
        ThreadRecord thread = lane.thread();
        long threadId = thread.getId();
        String fingerprint = command.fingerprint();
        Optional<String> replayed = keys.replayOf(command.userKey(), command.source(), command.idempotencyKey(),
                fingerprint);
        if (replayed.isPresent()) {
            RunRecord run = repository.run(replayed.get());
            return new IngestOutcome(RunView.of(run), run.getThreadId(), true);
        }
        long now = clock.millis();
        TurnRecord turn = new TurnRecord(TurnIds.turnId(), command.userKey(), threadId, command.threadKey(), now);
        repository.add(turn);
        RunRecord run = new RunRecord(UUID.randomUUID().toString(), threadId, thread.takeNextSeq(),
                command.userKey(), command.threadKey(), command.source(), command.externalUserKey(),
                command.deliveryMode(), command.text(), fingerprint, now, turn.getTurnId(), null);
        repository.add(run);
        events.opened(turn, List.of(Lifecycle.userMessage(command.text())), run.getRunId());
        keys.remember(command.userKey(), command.source(), command.idempotencyKey(), run.getRunId(), fingerprint, now);
        ClaimResult claim = claimFor == null ? ClaimResult.none() : lanes.claim(lane, claimFor, run);
        return new IngestOutcome(RunView.of(run), threadId, false, claim);
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
