package dev.switchboard.core.ingress;

import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEndings;
import dev.switchboard.core.lifecycle.TurnEnded;
import dev.switchboard.core.lifecycle.TurnEvents;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.lifecycle.TurnOpened;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * Turns in the ingress records: an RPC turn is journalled as an event when it opens (H11); when the
 * turn an event was handed off to (or an RPC turn) ends, inside the transaction that ends it
 * ({@link TurnEnded} is observed synchronously), the event's final action is recorded (H9), and
 * — for a lane other than {@code main} that completed — a {@code session.announce} summary reaches
 * {@code main} as an {@code item/created} unless its decision is a no-op (spec §12, H3). The rows are
 * {@link IngressRecords}'s.
 */
@ApplicationScoped
public class IngressOutcomes implements TurnEndings {

    @EJB
    IngressRecords records;

    @Inject
    TurnEvents events;

    @EJB
    IngressLedger ledger;

    @Inject
    InstanceClock clock;

    /** RPC turns are journalled as events (H11), in the transaction that opens them. */
    void turnOpened(@Observes TurnOpened turn) {
        ledger.journalTurn(turn);
    }

    /** Does nothing for turns whose first run no event was handed off to (jagc's messages). */
    @Override
    public int order() {
        return 500;
    }

    @Override
    public void turnEnded(TurnEnded turn) {
        RunKind kind = turn.firstRunKind();
        if (kind != RunKind.EVENT && kind != RunKind.TURN && kind != RunKind.CHAT) {
            return;
        }
        IngressEvent event = records.acceptedInto(turn.firstRunId()).orElse(null);
        if (event == null) {
            return;
        }
        Instant now = clock.now();
        records.act(TurnIds.itemId("actres"), event, turn.outcome(), turn.message(), turn.firstRunId(),
                turn.firstRunCreatedAt(), now.toEpochMilli());
        if (turn.isCompleted() && !SessionRouting.MAIN.equals(event.sessionKey())) {
            AnnounceOutcome outcome = AnnounceOutcome.derive(null, null, turn.message());
            if (!outcome.isNoOp()) {
                events.announce(event.userKey(), Lifecycle.announceItem(TurnIds.itemId("announce"),
                        event.eventId(), event.source(), event.type(), event.sessionKey(),
                        outcome.decision(), outcome.decisionRaw(), outcome.action(), turn.message(), now));
            }
        }
    }
}
