package dev.switchboard.core.ingress;

import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunLedger;
import dev.switchboard.core.turn.TurnIds;
import dev.switchboard.persistence.ingress.ActionRecord;
import dev.switchboard.persistence.ingress.DecisionRecord;
import dev.switchboard.persistence.ingress.IngressEventRecord;
import dev.switchboard.persistence.run.IngestRecord;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/**
 * The ingress pipeline's transaction (holon-serve spec §9.4): journal the event, notify
 * {@code event/received}, dedupe, decide, and hand off — as a run queued in the event's lane —
 * all committed together before the sender is answered.
 */
@Stateless
public class IngressLedger {

    static final String DUPLICATE_REASON = "duplicate dedupe_key";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @EJB
    RunLedger runs;

    @Inject
    Outbox outbox;

    /** What happened to an event; {@code claim} is a run claimed for this instance. */
    public record Outcome(String eventId, String status, String sessionKey, String runId, String turnId,
            long threadId, ClaimResult claim) {
    }

    public Outcome record(String userKey, EventEnvelope event, String sessionKey, long threadId, String claimFor) {
        long now = System.currentTimeMillis();
        String dedupeKey = event.dedupeKey().isEmpty() ? null : event.dedupeKey();
        IngressEventRecord journal = new IngressEventRecord(event.id(), userKey, event.source(), event.type(),
                event.scope().repo(), dedupeKey, sessionKey, event.toJson().toString(), now);
        em.persist(journal);
        if ("github".equalsIgnoreCase(event.source()) && !event.type().isEmpty()) {
            outbox.append(userKey, null, "event/received", Json.createObjectBuilder()
                    .add("event_id", event.id())
                    .add("source", event.source())
                    .add("event_type", event.type())
                    .add("repo", event.scope().repo())
                    .add("received_at", Instant.ofEpochMilli(now).toString())
                    .build());
        }
        em.find(ThreadRecord.class, threadId, LockModeType.PESSIMISTIC_WRITE); // serialises one lane's duplicates
        String source = "ingress:" + event.source();
        if (dedupeKey != null) {
            IngestRecord seen = em.find(IngestRecord.class, new IngestRecord.Key(userKey, source, dedupeKey));
            if (seen != null) {
                em.persist(new DecisionRecord(TurnIds.itemId("decision"), event.id(), "forward_event",
                        DUPLICATE_REASON, true, now));
                RunRecord original = em.find(RunRecord.class, seen.getRunId());
                journal.settle(IngressEventRecord.DUPLICATE, seen.getRunId(), original == null ? null : original.getTurnId());
                return new Outcome(event.id(), IngressEventRecord.DUPLICATE, sessionKey, seen.getRunId(),
                        original == null ? null : original.getTurnId(), threadId, ClaimResult.none());
            }
        }
        em.persist(new DecisionRecord(TurnIds.itemId("decision"), event.id(), "forward_event", null, false, now));
        IngestOutcome handedOff = runs.ingest(new MessageCommand(userKey, source, sessionKey, null, instruction(event),
                "followUp", dedupeKey), threadId, claimFor);
        em.persist(new ActionRecord(TurnIds.itemId("actres"), event.id(), "accepted", handedOff.run().runId(), now));
        journal.settle(IngressEventRecord.ACCEPTED, handedOff.run().runId(), handedOff.run().turnId());
        return new Outcome(event.id(), IngressEventRecord.ACCEPTED, sessionKey, handedOff.run().runId(),
                handedOff.run().turnId(), threadId, handedOff.claim());
    }

    /** What the engine is asked to handle: the event in one line (the envelope is in the journal). */
    static String instruction(EventEnvelope e) {
        StringBuilder b = new StringBuilder("event ").append(e.type().isEmpty() ? e.source() : e.type());
        if (!e.scope().repo().isEmpty()) {
            b.append(" in ").append(e.scope().repo());
        }
        if (!e.subject().kind().isEmpty()) {
            b.append(' ').append(e.subject().kind()).append('#').append(e.subject().id());
        }
        return b.append(" (").append(e.id()).append(')').toString();
    }
}
