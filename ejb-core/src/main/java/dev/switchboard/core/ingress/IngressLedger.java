package dev.switchboard.core.ingress;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.execution.StoredRuns.StoredRun;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.lifecycle.TurnOpened;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.core.run.RunLedger;
import dev.switchboard.core.runtime.ServeRuntime;
import dev.switchboard.core.thread.ThreadDirectory;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.turn.ServerSources;
import dev.switchboard.core.turn.TurnLedger;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
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
 * arrival order once it runs again (H10: pause defers, it does not drop). The rows are
 * {@link IngressRecords}'s.
 */
@Stateless
public class IngressLedger {

    @EJB
    IngressRecords records;

    @EJB
    RunLedger runs;

    @Inject
    Outbox outbox;

    @Inject
    ServeRuntime runtime;

    @Inject
    StoredRuns storedRuns;

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
        if (records.exists(userKey, e.id())) {
            e = e.withId(IngressService.newEventId()); // the sender reused one of its own ids: recorded under a fresh one
        }
        String dedupeKey = e.dedupeKey().isEmpty() ? null : e.dedupeKey();
        // Journalled first (as accepted until its outcome settles it): the decision and action rows name it.
        IngressEvent journal = new IngressEvent(userKey, e.id(), e.source(), e.type(), e.scope().repo(), dedupeKey,
                sessionKey, EventStatus.ACCEPTED, null, null, e.toJson().toString(), now);
        records.insert(journal);
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
        List<String> heldKeys = seen != null ? List.of() : records.heldKeys(userKey, dedupeKey, sessionKey);
        String repo = e.scope().repo();
        IngressDecision decision = IngressDecision.decide(new IngressDecision.Facts(seen != null,
                dedupeKey != null && heldKeys.contains(dedupeKey), seen == null && runtime.isPaused(userKey),
                "timer".equals(e.source()), () -> records.tickHeld(userKey, repo), !heldKeys.isEmpty()));
        return switch (decision.kind()) {
            case DUPLICATE -> duplicate(journal, decision.reason(), seen, threadId, now);
            case HOLD -> hold(journal, decision.reason(), threadId, now);
            case FORWARD -> handOff(journal, threadId, claimFor, now);
        };
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
        if (runtime.isPaused(userKey)) {
            return new Released(List.of(), false);
        }
        Set<Long> woken = new LinkedHashSet<>();
        List<IngressEvent> batch = records.held(userKey, max);
        for (IngressEvent read : batch) {
            // Locked, and read again: a concurrent release may have handed it off.
            IngressEvent event = records.lock(userKey, read.eventId()).orElse(null);
            if (event == null || !EventStatus.HELD.equals(event.status())) {
                continue;
            }
            long threadId = threads.find(userKey, event.sessionKey()).orElseThrow(
                    () -> new IllegalStateException("the lane of held event " + event.eventId() + " is missing"));
            long now = clock.millis();
            var seen = keys.seen(userKey, runSource(event.source()), event.dedupeKey());
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
        return records.usersWithHeldEvents();
    }

    /**
     * Runs a failed event again (H9): a new run in the same lane, recorded as a {@code requeue_event}
     * decision and an {@code accepted} action. Only an event whose last run failed can be requeued.
     */
    public EventOutcome requeue(String userKey, String eventId, String claimFor) {
        IngressEvent event = records.lock(userKey, eventId).orElseThrow(
                () -> new RequeueRefusedException(true, "event " + eventId + " not found"));
        String lastState = storedRuns.run(event.runId()).map(run -> run.state().wire()).orElse(null);
        IngressDecision.requeueRefusal(eventId, event.status(), lastState)
                .ifPresent(reason -> {
                    throw new RequeueRefusedException(false, reason);
                });
        long threadId = threads.find(userKey, event.sessionKey()).orElseThrow(
                () -> new IllegalStateException("the lane of event " + eventId + " is missing"));
        long now = clock.millis();
        decide(event, "requeue_event", "requeued by " + userKey, false, now);
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
        // Journalled accepted into the turn's run at once: nothing is left to settle.
        IngressEvent journal = new IngressEvent(turn.userKey(), e.id(), e.source(), e.type(), e.scope().repo(),
                e.dedupeKey(), thread, EventStatus.ACCEPTED, turn.runId(), turn.turnId(), e.toJson().toString(), turn.at());
        records.insert(journal);
        decide(journal, "forward_event", null, false, turn.at());
        records.act(TurnIds.itemId("actres"), journal, "accepted", null, turn.runId(), turn.at(), null);
    }

    /** The event was handed to run {@code runId}: its {@code accepted} action, and the event points at the run. */
    private void accepted(IngressEvent journal, String runId, String turnId, long now) {
        records.act(TurnIds.itemId("actres"), journal, "accepted", null, runId, now, null);
        records.settle(journal, EventStatus.ACCEPTED, runId, turnId);
    }

    private EventOutcome duplicate(IngressEvent journal, String reason, String originalRunId, long threadId, long now) {
        decide(journal, "forward_event", reason, true, now);
        String turnId = storedRuns.run(originalRunId).map(StoredRun::turnId).orElse(null);
        records.settle(journal, EventStatus.DUPLICATE, originalRunId, turnId);
        return new EventOutcome(journal.eventId(), EventStatus.DUPLICATE, journal.sessionKey(),
                originalRunId, turnId, threadId, ClaimResult.none());
    }

    private void decide(IngressEvent event, String type, String reason, boolean skipped, long now) {
        records.decide(TurnIds.itemId("decision"), event, type, reason, skipped, now);
    }

    private EventOutcome hold(IngressEvent journal, String reason, long threadId, long now) {
        decide(journal, "defer_event", reason, false, now);
        records.settle(journal, EventStatus.HELD, null, null);
        return new EventOutcome(journal.eventId(), EventStatus.HELD, journal.sessionKey(), null, null,
                threadId, ClaimResult.none());
    }

    private EventOutcome handOff(IngressEvent journal, long threadId, String claimFor, long now) {
        decide(journal, "forward_event", null, false, now);
        return run(journal, threadId, claimFor, now, journal.dedupeKey());
    }

    private EventOutcome run(IngressEvent journal, long threadId, String claimFor, long now, String dedupeKey) {
        IngestOutcome handedOff = runs.ingest(new MessageCommand(journal.userKey(), runSource(journal.source()),
                journal.sessionKey(), null, instruction(Jsons.readObject(journal.envelope())), "followUp", dedupeKey, null,
                RunKind.EVENT), threadId, claimFor);
        accepted(journal, handedOff.run().runId(), handedOff.run().turnId(), now);
        return new EventOutcome(journal.eventId(), EventStatus.ACCEPTED, journal.sessionKey(),
                handedOff.run().runId(), handedOff.run().turnId(), threadId, handedOff.claim());
    }

    /** Runs handed off from ingress carry their source, so a dedupe key is scoped per source. */
    static String runSource(String eventSource) {
        return ServerSources.INGRESS_PREFIX + eventSource;
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
