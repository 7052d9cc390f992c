package dev.switchboard.core.run;

import dev.switchboard.core.delegation.CallTree;
import dev.switchboard.core.delegation.PathReads;
import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lane.LaneController;
import dev.switchboard.core.lane.LaneLedger;
import dev.switchboard.core.lane.RunWatch;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.thread.ThreadDirectory;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;


/**
 * The runs service the web modules call. Each ingest is committed before it returns (so the
 * caller may acknowledge it); an ingest into an idle lane claims it in the same transaction and
 * starts the run here, otherwise it wakes the lane.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RunService {

    /** While waiting, the database is re-read this often for runs finishing on other instances. */
    private static final long WAIT_RECHECK_MS = 500;

    @EJB
    RunLedger ledger;

    @Inject
    PathReads paths;

    @EJB
    LaneController lanes;

    @EJB
    LaneLedger laneLedger;

    @Inject
    RunWatch watch;

    @Inject
    ThreadDirectory threads;

    @Inject
    Meters meters;

    @Inject
    Waiters waiters;

    /** Stores the message as a durable run (or finds the one its key names) and wakes its lane. */
    public IngestOutcome ingest(MessageCommand command) {
        long threadId = threads.idOf(command.userKey(), command.threadKey());
        IngestOutcome outcome = lanes.admit(threadId, claimFor -> store(command, threadId, claimFor),
                IngestOutcome::claim);
        if (outcome.wakesLane()) {
            lanes.wake(outcome.threadId());
        }
        meters.messagesAccepted(outcome.deduplicated() ? 0 : 1);
        return outcome;
    }

    /**
     * Stores a batch of messages as durable runs in one transaction — all or none, each thread's
     * in the batch's order — and wakes their lanes. Outcomes are in the batch's order.
     */
    public List<IngestOutcome> ingestAll(List<MessageCommand> commands) {
        List<Long> threadIds = commands.stream().map(c -> threads.idOf(c.userKey(), c.threadKey())).toList();
        List<IngestOutcome> outcomes = UniqueViolation.retryOnce(() -> ledger.ingestAll(commands, threadIds));
        outcomes.stream().filter(IngestOutcome::wakesLane).map(IngestOutcome::threadId).distinct()
                .forEach(lanes::wake);
        meters.messagesAccepted((int) outcomes.stream().filter(o -> !o.deduplicated()).count());
        return outcomes;
    }

    /** Two first uses of one key on different threads raced: the loser's retry finds the winner's run. */
    private IngestOutcome store(MessageCommand command, long threadId, String claimFor) {
        return UniqueViolation.retryOnce(() -> ledger.ingest(command, threadId, claimFor));
    }

    /** Cancels the thread's queued and executing runs; empty when the user has no such thread. */
    public Optional<List<String>> cancelThread(String userKey, String threadKey) {
        Optional<Long> threadId = threads.find(userKey, threadKey);
        if (threadId.isEmpty()) {
            return Optional.empty();
        }
        List<String> cancelled = laneLedger.cancel(threadId.get());
        lanes.cancelled(cancelled);
        meters.runsCancelled(cancelled.size());
        return Optional.of(cancelled);
    }

    public Optional<RunView> find(String userKey, String runId) {
        return ledger.find(userKey, runId);
    }

    /**
     * The call tree of the user's run {@code runId} (empty when the user has no such run): every
     * path its delegation made, with opaque ids — and, for {@code readable} (an operator), the
     * readable paths.
     */
    public Optional<JsonObject> tree(String userKey, String runId, boolean readable) {
        if (find(userKey, runId).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(CallTree.of(runId, paths.tree(runId), paths::slotsOf, readable));
    }

    public Optional<RunPage> page(String userKey, String threadKey, long afterSeq, int limit) {
        return Optional.ofNullable(ledger.page(userKey, threadKey, afterSeq, limit));
    }

    /**
     * Completes with the run once it is terminal, or with its current state when the timeout
     * passes first; empty when the user has no such run.
     *
     * @throws dev.switchboard.core.input.ServerBusy when the instance has as many clients waiting as it takes
     */
    public CompletionStage<Optional<RunView>> awaitTerminal(String userKey, String runId, long timeoutMs) {
        CompletableFuture<Optional<RunView>> result = new CompletableFuture<>();
        waiters.admit(result);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        check(userKey, runId, deadline, result);
        return result;
    }

    private void check(String userKey, String runId, long deadline, CompletableFuture<Optional<RunView>> result) {
        CompletableFuture<Void> change = watch.register(runId);
        Optional<RunView> run;
        try {
            run = ledger.find(userKey, runId);
        } catch (RuntimeException e) {
            watch.forget(runId, change);
            result.completeExceptionally(e);
            return;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (run.isEmpty() || run.get().isTerminal() || left <= 0) {
            watch.forget(runId, change);
            result.complete(run);
            return;
        }
        ScheduledFuture<?> recheck = waiters.executor().schedule(() -> change.complete(null),
                Math.min(left, WAIT_RECHECK_MS), TimeUnit.MILLISECONDS);
        change.thenRunAsync(() -> {
            recheck.cancel(false);
            watch.forget(runId, change);
            check(userKey, runId, deadline, result);
        }, waiters.executor());
    }
}
