package dev.switchboard.core.run;

import dev.switchboard.core.delegation.CallTree;
import dev.switchboard.core.delegation.PathReads;
import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lane.LaneController;
import dev.switchboard.core.lane.LaneLedger;
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


/**
 * The runs service the web modules call. Each ingest is committed before it returns (so the
 * caller may acknowledge it); an ingest into an idle lane claims it in the same transaction and
 * starts the run here, otherwise it wakes the lane.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RunService {

    @EJB
    RunLedger ledger;

    @Inject
    PathReads paths;

    @EJB
    LaneController lanes;

    @EJB
    LaneLedger laneLedger;


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

    /**
     * jagc's {@code DELETE /v1/threads/{key}/session}: the thread's next run starts a fresh
     * conversation ({@link RunLedger#resetConversation}); its executing run, if any, is cancelled
     * and stopped here, and the lane is woken for what is queued. A thread the user does not have
     * yet needs nothing: its first run starts fresh. Returns the cancelled run ids.
     */
    public List<String> resetConversation(String userKey, String threadKey) {
        Optional<Long> threadId = threads.find(userKey, threadKey);
        if (threadId.isEmpty()) {
            return List.of();
        }
        List<String> stopped = ledger.resetConversation(threadId.get());
        lanes.cancelled(stopped);
        meters.runsCancelled(stopped.size());
        lanes.wake(threadId.get());
        return stopped;
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
     * passes first; empty when the user has no such run ({@link RunWaits}).
     *
     * @throws dev.switchboard.core.input.ServerBusy when the instance has as many clients waiting as it takes
     */
    public CompletionStage<Optional<RunView>> awaitTerminal(String userKey, String runId, long timeoutMs) {
        CompletableFuture<Optional<RunView>> result = new CompletableFuture<>();
        waiters.admit(result);
        waiters.runs().await(userKey, runId, timeoutMs, result);
        return result;
    }
}
