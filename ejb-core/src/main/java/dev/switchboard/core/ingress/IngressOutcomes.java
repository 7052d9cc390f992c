package dev.switchboard.core.ingress;

import dev.switchboard.core.turn.Lifecycle;
import dev.switchboard.core.turn.TurnEvents;
import dev.switchboard.core.turn.TurnIds;
import dev.switchboard.persistence.ingress.ActionRecord;
import dev.switchboard.persistence.ingress.IngressEventRecord;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import java.time.Instant;
import java.util.List;

/**
 * What happens when the run an event was handed off to ends, inside the transaction that ends it:
 * the event's final action is recorded (H9), and — for a lane other than {@code main} that
 * completed — a {@code session.announce} summary reaches {@code main} as an {@code item/created}
 * unless its decision is a no-op (spec §12, H3).
 */
public final class IngressOutcomes {

    private final EntityManager em;
    private final TurnEvents events;

    public IngressOutcomes(EntityManager em, TurnEvents events) {
        this.em = em;
        this.events = events;
    }

    /** {@code runId} ended and with it {@code turn}; does nothing for runs no event was handed off to. */
    public void runEnded(String runId, String source, TurnRecord turn, long startedAt) {
        if (source == null || !source.startsWith("ingress:")) {
            return;
        }
        List<IngressEventRecord> found = em.createNamedQuery(IngressEventRecord.ACCEPTED_FOR_RUN, IngressEventRecord.class)
                .setParameter("runId", runId)
                .setFlushMode(FlushModeType.COMMIT) // the ending run's pending changes do not touch events
                .getResultList();
        if (found.isEmpty()) {
            return;
        }
        IngressEventRecord event = found.get(0);
        Instant now = Instant.now();
        em.persist(ActionRecord.finished(TurnIds.itemId("actres"), event.getEventId(), turn.getOutcome(),
                turn.getMessage(), runId, startedAt, now.toEpochMilli()));
        if ("completed".equals(turn.getOutcome()) && !SessionRouting.MAIN.equals(event.getSessionKey())) {
            AnnounceOutcome outcome = AnnounceOutcome.derive(null, null, turn.getMessage());
            if (!outcome.isNoOp()) {
                events.announce(event.getUserKey(), Lifecycle.announceItem(TurnIds.itemId("announce"),
                        event.getEventId(), event.getSource(), event.getType(), event.getSessionKey(),
                        outcome.decision(), outcome.action(), turn.getMessage(), now));
            }
        }
    }
}
