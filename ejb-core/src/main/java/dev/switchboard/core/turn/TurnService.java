package dev.switchboard.core.turn;

import dev.switchboard.core.run.QueueCaps;

import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lane.LaneController;
import dev.switchboard.core.thread.ThreadDirectory;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The turn calls the web modules make. Each change is committed (with its notifications) before
 * it returns; a new run in an idle lane is claimed in the same transaction and started here,
 * otherwise the lane is woken; stopped runs have their engines stopped here.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class TurnService {

    private static final Logger LOG = Logger.getLogger(TurnService.class.getName());

    @EJB
    TurnLedger ledger;

    @Inject
    ThreadDirectory threads;

    @EJB
    LaneController lanes;

    @Inject
    TurnSettings settings;

    @Inject
    QueueCaps caps;

    @EJB
    TurnQueries queries;

    /** A turn admitted under the configured follow-up policy. */
    public TurnLedger.Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey) {
        return start(userKey, threadKey, input, idempotencyKey,
                TurnAdmission.of(settings.followupPolicy(), caps.maxQueuedTurns()));
    }

    public TurnLedger.Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey,
            TurnAdmission.Rule rule) {
        return start(userKey, threadKey, input, idempotencyKey, rule, TurnDoor.RPC);
    }

    /** A turn through {@code door}. */
    public TurnLedger.Outcome start(String userKey, String threadKey, TurnInput input, String idempotencyKey,
            TurnAdmission.Rule rule, TurnDoor door) {
        long threadId = threads.idOf(userKey, threadKey);
        TurnLedger.Outcome outcome = UniqueViolation.retryOnce(() -> lanes.admit(threadId,
                claimFor -> ledger.start(userKey, threadKey, input, idempotencyKey, threadId, claimFor, rule, door),
                TurnLedger.Outcome::claim));
        if (outcome.movesSession()) {
            try {
                ledger.moveSession(userKey, threadKey);
            } catch (RuntimeException e) { // the turn is stored and answered; the session is the runtime's label
                LOG.log(Level.WARNING, "The runtime of " + userKey + " did not take thread " + threadKey
                        + " as its session; it stays where it was", e);
            }
        }
        return settled(outcome);
    }

    public TurnLedger.Outcome steer(String userKey, String turnId, TurnInput input) {
        return settled(lanes.admit(null, claimFor -> ledger.steer(userKey, turnId, input, claimFor),
                TurnLedger.Outcome::claim));
    }

    public TurnLedger.Outcome interrupt(String userKey, String turnId, String message) {
        return settled(ledger.interrupt(userKey, turnId, message));
    }

    public String interruptRuntime(String userKey, String message) {
        return UniqueViolation.retryOnce(() -> ledger.interruptRuntime(userKey, message));
    }

    /**
     * The user's thread's history after {@code afterSeq}, up to {@code limit} items, read in a
     * transaction of its own ({@link TurnQueries}); empty when there is no such thread.
     */
    public Optional<HistoryPage> history(String userKey, String threadKey, long afterSeq, int limit) {
        return queries.history(userKey, threadKey, afterSeq, limit);
    }

    private TurnLedger.Outcome settled(TurnLedger.Outcome outcome) {
        lanes.cancelled(outcome.stopped());
        if (outcome.claim().claim().isEmpty() && !outcome.deduplicated()) {
            lanes.wake(outcome.threadId());
        }
        return outcome;
    }
}
