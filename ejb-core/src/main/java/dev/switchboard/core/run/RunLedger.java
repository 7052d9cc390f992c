package dev.switchboard.core.run;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.execution.StoredRuns.StoredRun;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.history.ThreadContexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.LaneHead;
import dev.switchboard.core.lane.LaneRun;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.lane.NewRun;
import dev.switchboard.core.lane.LaneLedger;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.lifecycle.TurnRef;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunState;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/** The run store's transactions; {@link RunService} orchestrates them. */
@Stateless
public class RunLedger {

    @Inject
    ThreadRepository repository;

    @Inject
    Lanes threadLanes;

    @Inject
    TurnRows turns;

    @Inject
    StoredRuns runs;

    @Inject
    IdempotencyKeys keys;

    @Inject
    LaneHead lanes;

    @Inject
    TurnEvents events;

    @Inject
    InstanceClock clock;

    @Inject
    QueueCaps caps;

    @EJB
    LaneLedger laneLedger;

    @Inject
    ThreadItems items;

    @Inject
    ThreadContexts contexts;

    /**
     * jagc's session reset of the thread, in one transaction under its lane lock: the run it
     * executes is cancelled — it belongs to the conversation that ends — and its context window
     * opens after the last item stored, so the engine of its next run is given nothing from before.
     * The stored history stays whole, and queued runs stay queued (they run in the new conversation).
     * Returns the cancelled run, if one executed.
     */
    public List<String> resetConversation(long threadId) {
        List<String> stopped = laneLedger.cancelExecuting(threadId);
        contexts.write(threadId, new ContextWindow(List.of(), items.lastSeq(threadId) + 1), clock.millis());
        return stopped;
    }

    /**
     * Stores the message as a queued run, or returns the run its idempotency key already names,
     * through the lane ({@link Lanes}). The thread row is locked first: it hands out the per-thread
     * sequence number, and it makes concurrent duplicates of one key wait for each other instead
     * of racing. When {@code claimFor} names this instance (which has reserved a slot) and the
     * lane is idle, the lane head is claimed in the same transaction, saving the claim a wake-up
     * would cost: a run into a lane holding no other unfinished run is inserted started, and the
     * lane row written once, with its sequence and lease.
     */
    public IngestOutcome ingest(MessageCommand command, long threadId, String claimFor) {
        Lane lane = threadLanes.lock(threadId);
        Optional<IngestOutcome> replayed = replayOf(command);
        if (replayed.isPresent()) {
            return replayed.get();
        }
        int cap = caps.runsFor(command.kind());
        if (QueueCaps.mayBeFull(lane.nextSeq() - 1, cap) && threadLanes.unfinishedCount(threadId) >= cap) {
            throw new QueueFullException(cap);
        }
        LaneRun ahead = claimFor == null ? null : threadLanes.head(threadId);
        boolean startsNow = claimFor != null && ahead == null && lanes.mayStartAdded(lane, claimFor);
        Added added = add(command, lane, startsNow ? claimFor : null);
        NewRun run = added.run();
        IngestOutcome outcome = new IngestOutcome(view(run), threadId, false);
        if (startsNow) {
            return outcome.claimed(threadLanes.startedAdded(added.lane(), run));
        }
        threadLanes.save(added.lane());
        return ahead == null ? outcome : outcome.claimed(lanes.claim(added.lane(), claimFor, ahead));
    }

    /**
     * Stores every message of a batch in this one transaction, in order — each as
     * {@link #ingest} would, without claiming — and returns their outcomes in the same order.
     * The batch's threads are locked first, in ascending id order, so two batches over the same
     * threads wait for each other instead of deadlocking.
     *
     * @param threadIds each command's thread id, by index
     * @throws IdempotencyConflictException naming the index of the first message whose key was used with another payload
     * @throws QueueFullException naming the index of the first message that met its thread's queue cap
     */
    public List<IngestOutcome> ingestAll(List<MessageCommand> commands, List<Long> threadIds) {
        Map<Long, Lane> locked = new TreeMap<>();
        for (long threadId : new TreeSet<>(threadIds)) {
            locked.put(threadId, threadLanes.lock(threadId));
        }
        Map<Long, Integer> unfinished = new HashMap<>(); // per thread, counted once it could be at its cap
        Map<Long, Lane> advanced = new HashMap<>();
        List<IngestOutcome> outcomes = new ArrayList<>(commands.size());
        for (int i = 0; i < commands.size(); i++) {
            MessageCommand command = commands.get(i);
            long threadId = threadIds.get(i);
            try {
                Optional<IngestOutcome> replayed = replayOf(command);
                if (replayed.isPresent()) {
                    outcomes.add(replayed.get());
                    continue;
                }
            } catch (IdempotencyConflictException e) {
                throw e.at(i);
            }
            Lane lane = advanced.getOrDefault(threadId, locked.get(threadId));
            int cap = caps.runsFor(command.kind());
            if (unfinished.containsKey(threadId) || QueueCaps.mayBeFull(lane.nextSeq() - 1, cap)) {
                int held = unfinished.computeIfAbsent(threadId, threadLanes::unfinishedCount); // this batch's included
                if (held >= cap) {
                    throw new QueueFullException(cap).at(i);
                }
                unfinished.put(threadId, held + 1);
            }
            Added added = add(command, lane, null);
            advanced.put(threadId, added.lane());
            outcomes.add(new IngestOutcome(view(added.run()), threadId, false));
        }
        advanced.values().forEach(threadLanes::save);
        return outcomes;
    }

    /** The outcome naming the run an earlier use of the message's idempotency key stored, if any. */
    private Optional<IngestOutcome> replayOf(MessageCommand command) {
        return keys.replayOf(command.userKey(), command.source(), command.idempotencyKey(), command.fingerprint())
                .flatMap(runs::run)
                .map(run -> new IngestOutcome(view(run), run.threadId(), true));
    }

    /**
     * Inserts the message's turn and run as the locked lane's next — started for {@code startFor}
     * when not null — with its notifications and its idempotency key; the lane after it is saved
     * (or claimed) by the caller.
     */
    private Added add(MessageCommand command, Lane lane, String startFor) {
        long threadId = lane.threadId();
        long seq = lane.nextSeq();
        long now = clock.millis();
        TurnRef turn = new TurnRef(TurnIds.turnId(), command.userKey(), command.threadKey(), now);
        String fingerprint = command.fingerprint();
        NewRun queued = NewRun.queued(command.runId() != null ? command.runId() : UUID.randomUUID().toString(),
                threadId, seq, now, RunContent.of(command.userKey(), command.threadKey(), command.source(), command.kind(),
                command.externalUserKey(), command.deliveryMode(), command.text(), null, turn.turnId(), fingerprint));
        NewRun run = startFor == null ? queued : queued.startedBy(startFor);
        turns.insert(turn.turnId(), turn.userKey(), threadId, turn.threadKey(), now);
        Lane after = threadLanes.enqueue(lane, run);
        events.opened(turn, List.of(Lifecycle.userMessage(command.text())), run.runId());
        keys.remember(command.userKey(), command.source(), command.idempotencyKey(), run.runId(), fingerprint, now);
        return new Added(run, after);
    }

    /** A run added to a lane, and the lane after it. */
    private record Added(NewRun run, Lane lane) {
    }

    public Optional<RunView> find(String userKey, String runId) {
        return runs.run(runId).filter(run -> run.userKey().equals(userKey)).map(RunLedger::view);
    }

    /** Which of {@code runIds} have ended: one statement ({@link RunWaits}' sweep). */
    public Set<String> ended(Collection<String> runIds) {
        return threadLanes.ended(runIds);
    }

    /** Null when the user has no such thread. */
    public RunPage page(String userKey, String threadKey, long afterSeq, int limit) {
        Optional<Long> thread = repository.idOf(userKey, threadKey);
        if (thread.isEmpty()) {
            return null;
        }
        List<RunView> runs = this.runs.after(thread.get(), afterSeq, limit + 1).stream()
                .map(RunLedger::view).toList();
        if (runs.size() > limit) {
            List<RunView> page = runs.subList(0, limit);
            return new RunPage(page, page.get(limit - 1).threadSeq());
        }
        return new RunPage(runs, null);
    }

    /** A run just added, as callers see it. */
    static RunView view(NewRun r) {
        RunState state = r.state();
        RunContent run = RunContent.of(r);
        return new RunView(r.runId(), state.jagcStatus(), state.wire(), null, null, null, run.threadKey(), r.threadSeq(),
                run.source(), run.deliveryMode(), r.attempt(), 0, r.createdAt(), r.startedAt(), null, run.turnId());
    }

    /** The run as callers see it. */
    public static RunView view(StoredRun r) {
        RunState state = r.state();
        String output = state == RunState.SUCCEEDED ? r.outputJson() : null;
        String error = r.errorMessage() == null || r.errorMessage().isEmpty() ? null : r.errorMessage();
        return new RunView(r.runId(), state.jagcStatus(), state.wire(), output, error, r.errorCode(), r.threadKey(),
                r.threadSeq(), r.source(), r.deliveryMode(), r.attempt(), r.crashes(), r.createdAt(),
                r.startedAt(), r.finishedAt(), r.turnId());
    }
}
