package dev.switchboard.core.ingress;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.lifecycle.TurnOpened;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.core.run.RunLedger;
import dev.switchboard.core.runtime.ServeRuntime;
import dev.switchboard.core.thread.ThreadDirectory;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.core.turn.ServerSources;
import dev.switchboard.core.turn.TurnLedger;
import dev.switchboard.persistence.ingress.EventStatus;
import dev.switchboard.persistence.ingress.ActionRecord;
import dev.switchboard.persistence.ingress.DecisionRecord;
import dev.switchboard.persistence.ingress.IngressEventRecord;
import dev.switchboard.persistence.run.RunRecord;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The ingress pipeline's transactions (holon-serve spec §9.4): journal the event, notify
 * {@code event/received}, dedupe, decide, and hand off — as a run queued in the event's lane —
 * all committed together before the sender is answered. While the user's runtime is paused an
 * event is journalled and held ({@code deferred}); {@link #release} hands held events off in
 * arrival order once it runs again (H10: pause defers, it does not drop).
 */
@Store({"ingress_events", "ingress_decisions", "ingress_actions", "runs"})
@Stateless
public class IngressLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @EJB
    RunLedger runs;

    @Inject
    Outbox outbox;

    @Inject
    ServeRuntime runtime;

    @Inject
    ThreadRepository repository;

    @Inject
    Lanes lanes;

    @Inject
    IdempotencyKeys keys;

    @Inject
    ThreadDirectory threads;

    @Inject
    InstanceClock clock;

    @Inject
    IngressSettings settings;

    /** Holon's type of the event an RPC turn is journalled as. */
    public static final String RPC_TURN_TYPE = "rpc.turn.input";

    public EventOutcome record(String userKey, EventEnvelope e, String sessionKey, long threadId, String claimFor) {
        long now = clock.millis();
        if (em.find(IngressEventRecord.class, new IngressEventRecord.Key(userKey, e.id())) != null) {
            e = e.withId(IngressService.newEventId()); // the sender reused one of its own ids: recorded under a fresh one
        }
        String dedupeKey = e.dedupeKey().isEmpty() ? null : e.dedupeKey();
        IngressEventRecord journal = new IngressEventRecord(e.id(), userKey, e.source(), e.type(),
                e.scope().repo(), dedupeKey, sessionKey, e.toJson().toString(), now);
        em.persist(journal);
        em.flush(); // the decision and action rows reference it, and EclipseLink orders inserts by class
        outbox.append(userKey, null, "event/received", Jsons.createObjectBuilder()
                .add("event_id", e.id())
                .add("source", e.source())
                .add("event_type", e.type())
                .add("repo", e.scope().repo())
                .add("session_key", sessionKey)
                .add("received_at", Instant.ofEpochMilli(now).toString())
                .build());
        lanes.lock(threadId); // serialises one lane's duplicates
        String seen = keys.seen(userKey, runSource(e.source()), dedupeKey).orElse(null);
        List<String> heldKeys = seen != null ? List.of()
                : em.createNamedQuery(IngressEventRecord.DEFERRED_BY_KEY_OR_LANE, String.class)
                        .setParameter("userKey", userKey)
                        .setParameter("dedupeKey", dedupeKey == null ? "" : dedupeKey)
                        .setParameter("sessionKey", sessionKey)
                        .setFlushMode(FlushModeType.COMMIT) // this transaction's own rows are not held ones
                        .getResultList();
        String repo = e.scope().repo();
        IngressDecision decision = IngressDecision.decide(new IngressDecision.Facts(seen != null,
                dedupeKey != null && heldKeys.contains(dedupeKey), seen == null && runtime.read(userKey).isPaused(),
                "timer".equals(e.source()), () -> tickHeld(userKey, repo), !heldKeys.isEmpty()));
        return switch (decision.kind()) {
            case DUPLICATE -> duplicate(journal, decision.reason(), seen, threadId, now);
            case HOLD -> hold(journal, decision.reason(), threadId, now);
            case FORWARD -> handOff(journal, threadId, claimFor, now);
        };
    }

    private boolean tickHeld(String userKey, String repo) {
        return !em.createNamedQuery(IngressEventRecord.DEFERRED_TIMER, IngressEventRecord.class)
                .setParameter("userKey", userKey)
                .setParameter("repo", repo)
                .setMaxResults(1)
                .getResultList()
                .isEmpty();
    }

    /** What one release transaction did: the lanes that got work, and whether more events are held. */
    public record Released(List<Long> lanes, boolean more) {
    }

    /**
     * Hands off up to {@code max} of the user's held events, oldest first, when the runtime is
     * running. Each held event is locked first, so concurrent releases hand it off once. A bounded
     * batch keeps the transaction short: lane locks are held only while it runs.
     */
    public Released release(String userKey, int max) {
        if (runtime.read(userKey).isPaused()) {
            return new Released(List.of(), false);
        }
        Set<Long> woken = new LinkedHashSet<>();
        List<IngressEventRecord> batch = em.createNamedQuery(IngressEventRecord.DEFERRED, IngressEventRecord.class)
                .setParameter("userKey", userKey)
                .setMaxResults(max)
                .getResultList();
        for (IngressEventRecord event : batch) {
            em.refresh(event, LockModeType.PESSIMISTIC_WRITE); // a concurrent release may have handed it off
            if (!EventStatus.HELD.equals(event.getStatus())) {
                continue;
            }
            long threadId = threads.find(userKey, event.getSessionKey()).orElseThrow(
                    () -> new IllegalStateException("the lane of held event " + event.getEventId() + " is missing"));
            long now = clock.millis();
            var seen = keys.seen(userKey, runSource(event.getSource()), event.getDedupeKey());
            if (seen.isPresent()) {
                duplicate(event, IngressDecision.DUPLICATE_KEY, seen.get(), threadId, now);
            } else {
                handOff(event, threadId, null, now);
                woken.add(threadId);
            }
        }
        return new Released(new ArrayList<>(woken), batch.size() == max);
    }

    /**
     * Forgets the dedupe keys of events received before {@code before} (epoch millis): a delivery
     * resent after that is new again (H9: keys are kept for a configured age, not a count).
     */
    public int forgetDedupeKeys(long before) {
        return keys.forget(runSource(""), before);
    }

    /** The users that have held events (for the start-up sweep after a crash between resume and release). */
    public List<String> usersWithHeldEvents() {
        return em.createQuery("SELECT DISTINCT e.userKey FROM IngressEventRecord e WHERE e.status = 'deferred'",
                String.class).getResultList();
    }

    /**
     * Runs a failed event again (H9): a new run in the same lane, recorded as a {@code requeue_event}
     * decision and an {@code accepted} action. Only an event whose last run failed can be requeued.
     */
    public EventOutcome requeue(String userKey, String eventId, String claimFor) {
        IngressEventRecord event = em.find(IngressEventRecord.class, new IngressEventRecord.Key(userKey, eventId),
                LockModeType.PESSIMISTIC_WRITE);
        if (event == null) {
            throw new RequeueRefusedException(true, "event " + eventId + " not found");
        }
        RunRecord last = event.getRunId() == null ? null : repository.run(event.getRunId());
        IngressDecision.requeueRefusal(eventId, event.getStatus(), last == null ? null : last.getState().wire())
                .ifPresent(reason -> {
                    throw new RequeueRefusedException(false, reason);
                });
        long threadId = threads.find(userKey, event.getSessionKey()).orElseThrow(
                () -> new IllegalStateException("the lane of event " + eventId + " is missing"));
        long now = clock.millis();
        decide(userKey, eventId, "requeue_event", "requeued by " + userKey, false, now);
        return run(event, threadId, claimFor, now, null);
    }

    /**
     * Journals an RPC turn as Holon's {@code rpc.turn.input} event (H11): the event, accepted into
     * the turn's run, with its {@code forward_event} decision and {@code accepted} action, so the
     * records trace RPC turns like every other event and the turn's end is recorded and announced.
     */
    public void journalTurn(TurnOpened turn) {
        String thread = turn.threadKey();
        EventEnvelope e = new EventEnvelope(TurnIds.itemId("rpc_turn"), TurnLedger.SOURCE, RPC_TURN_TYPE,
                Instant.ofEpochMilli(turn.at()), new EventEnvelope.Scope("", thread, settings.repoHint(), "", ""),
                new EventEnvelope.Subject("thread", thread), DedupeKeys.storable("rpc:turn:" + thread + ":" + turn.turnId()),
                Jsons.createObjectBuilder().add("turn_id", turn.turnId()).add("thread_id", thread)
                        .add("session_key", thread).add("input", turn.input()).build());
        IngressEventRecord journal = new IngressEventRecord(e.id(), turn.userKey(), e.source(), e.type(),
                e.scope().repo(), e.dedupeKey(), thread, e.toJson().toString(), turn.at());
        em.persist(journal);
        em.flush(); // the decision and action rows reference it, and EclipseLink orders inserts by class
        decide(turn.userKey(), e.id(), "forward_event", null, false, turn.at());
        accepted(journal, turn.runId(), turn.turnId(), turn.at());
    }

    /** The event was handed to run {@code runId}: its {@code accepted} action, and the event points at the run. */
    private void accepted(IngressEventRecord journal, String runId, String turnId, long now) {
        em.persist(new ActionRecord(TurnIds.itemId("actres"), journal.getUserKey(), journal.getEventId(), "accepted",
                runId, now));
        journal.settle(EventStatus.ACCEPTED, runId, turnId);
    }

    private EventOutcome duplicate(IngressEventRecord journal, String reason, String originalRunId, long threadId,
            long now) {
        decide(journal.getUserKey(), journal.getEventId(), "forward_event", reason, true, now);
        RunRecord original = originalRunId == null ? null : repository.run(originalRunId);
        String turnId = original == null ? null : original.getTurnId();
        journal.settle(EventStatus.DUPLICATE, originalRunId, turnId);
        return new EventOutcome(journal.getEventId(), EventStatus.DUPLICATE, journal.getSessionKey(),
                originalRunId, turnId, threadId, ClaimResult.none());
    }

    private void decide(String userKey, String eventId, String type, String reason, boolean skipped, long now) {
        em.persist(new DecisionRecord(TurnIds.itemId("decision"), userKey, eventId, type, reason, skipped, now));
    }

    private EventOutcome hold(IngressEventRecord journal, String reason, long threadId, long now) {
        decide(journal.getUserKey(), journal.getEventId(), "defer_event", reason, false, now);
        journal.settle(EventStatus.HELD, null, null);
        return new EventOutcome(journal.getEventId(), EventStatus.HELD, journal.getSessionKey(), null, null,
                threadId, ClaimResult.none());
    }

    private EventOutcome handOff(IngressEventRecord journal, long threadId, String claimFor, long now) {
        decide(journal.getUserKey(), journal.getEventId(), "forward_event", null, false, now);
        return run(journal, threadId, claimFor, now, journal.getDedupeKey());
    }

    private EventOutcome run(IngressEventRecord journal, long threadId, String claimFor, long now, String dedupeKey) {
        IngestOutcome handedOff = runs.ingest(new MessageCommand(journal.getUserKey(), runSource(journal.getSource()),
                journal.getSessionKey(), null, instruction(envelopeOf(journal)), "followUp", dedupeKey, null, RunKind.EVENT),
                threadId,
                claimFor);
        accepted(journal, handedOff.run().runId(), handedOff.run().turnId(), now);
        return new EventOutcome(journal.getEventId(), EventStatus.ACCEPTED, journal.getSessionKey(),
                handedOff.run().runId(), handedOff.run().turnId(), threadId, handedOff.claim());
    }

    /** Runs handed off from ingress carry their source, so a dedupe key is scoped per source. */
    static String runSource(String eventSource) {
        return ServerSources.INGRESS_PREFIX + eventSource;
    }

    private static JsonObject envelopeOf(IngressEventRecord journal) {
        return Jsons.readObject(journal.getEnvelope());
    }

    /**
     * What the engine is asked to handle: the sender's {@code payload.instruction} when it gives
     * one (a schedule's or a script's prompt), else the event in one line (the envelope is in the
     * journal).
     */
    static String instruction(JsonObject envelope) {
        JsonObject payload = GithubEvents.objectAt(envelope, "payload");
        String given = GithubEvents.text(payload.get("instruction")).strip();
        if (!given.isEmpty()) {
            return given;
        }
        String type = envelope.getString("type", "");
        StringBuilder b = new StringBuilder("event ").append(type.isEmpty() ? envelope.getString("source", "") : type);
        JsonObject scope = GithubEvents.objectAt(envelope, "scope");
        if (!scope.getString("repo", "").isEmpty()) {
            b.append(" in ").append(scope.getString("repo"));
        }
        JsonObject subject = GithubEvents.objectAt(envelope, "subject");
        if (!subject.getString("kind", "").isEmpty()) {
            b.append(' ').append(subject.getString("kind")).append('#').append(subject.getString("id", ""));
        }
        return b.append(" (").append(envelope.getString("id", "")).append(')').toString();
    }
}
