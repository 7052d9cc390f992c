package dev.switchboard.core.ingress;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lane.LaneController;
import dev.switchboard.core.lifecycle.TurnIds;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.thread.ThreadDirectory;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * Receives normalised events: routes each to its lane, records and hands it off in one
 * transaction, and starts or wakes the lane. Reads the ingress records for the web modules, each
 * page in a transaction of its own ({@link IngressRecords}).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class IngressService {

    /** Held events handed off per transaction when a pause ends. */
    static final int RELEASE_BATCH = 100;

    @EJB
    IngressLedger ledger;

    @Inject
    ThreadDirectory threads;

    @Inject
    InstanceClock clock;

    @Inject
    Meters meters;

    @EJB
    LaneController lanes;

    @EJB
    IngressScheduler scheduler;

    @EJB
    IngressRecords records;

    /** Records an event that came in through {@code door}, and hands it to its lane as the pipeline decides. */
    public EventOutcome receive(String userKey, IngressDoor door, EventEnvelope event) {
        String sessionKey = SessionRouting.route(event);
        long threadId = threads.idOf(userKey, sessionKey);
        EventOutcome outcome;
        try {
            outcome = admit(userKey, event, sessionKey, threadId);
        } catch (RuntimeException e) { // a system exception (EJBException) or a lost first use (UniqueViolation.Lost)
            if (!UniqueViolation.in(e)) {
                throw e;
            }
            // Two deliveries of the user's with one id at the same instant (a reused id found first is
            // renamed without a failure: IngressLedger.record), or a concurrent first delivery took the
            // dedupe key: once more under a fresh id, which records the delivery — as the duplicate it
            // then is, in the second case.
            outcome = admit(userKey, event.withId(newEventId()), sessionKey, threadId);
        }
        if (EventStatus.ACCEPTED.equals(outcome.status()) && outcome.claim().claim().isEmpty()) {
            lanes.wake(threadId);
        } else if (EventStatus.HELD.equals(outcome.status())) {
            scheduler.releaseSoon(userKey); // the runtime may have resumed after this event read it as paused
        }
        meters.ingressEvent(door.label(), outcome.status());
        return outcome;
    }

    private EventOutcome admit(String userKey, EventEnvelope event, String sessionKey, long threadId) {
        return lanes.admit(threadId, claimFor -> ledger.record(userKey, event, sessionKey, threadId, claimFor),
                EventOutcome::claim);
    }

    /** Hands off the user's held events if the runtime runs, a batch per transaction, and wakes their lanes. */
    public void release(String userKey) {
        IngressLedger.Released released;
        do {
            released = UniqueViolation.retryOnce(() -> ledger.release(userKey, RELEASE_BATCH));
            released.lanes().forEach(lanes::wake);
        } while (released.more());
    }

    /** The sweep: releases what a failed release, or a crash between a resume and its release, left held. */
    public void releaseAll() {
        for (String user : ledger.usersWithHeldEvents()) {
            release(user);
        }
    }

    /** Forgets dedupe keys older than the retention; returns how many. */
    public int forgetDedupeKeys(Duration retention) {
        return ledger.forgetDedupeKeys(clock.millis() - retention.toMillis());
    }

    /** Deletes ingress records older than the retention (held events excepted); returns how many events. */
    public int forgetRecords(Duration retention) {
        return records.forget(clock.millis() - retention.toMillis());
    }

    /** Runs a failed event again in its lane; see {@link IngressLedger#requeue}. */
    public EventOutcome requeue(String userKey, String eventId) {
        EventOutcome outcome = lanes.admit(null, claimFor -> ledger.requeue(userKey, eventId, claimFor),
                EventOutcome::claim);
        if (outcome.claim().claim().isEmpty()) {
            lanes.wake(outcome.threadId());
        }
        return outcome;
    }

    /** A page of the user's events, each with its status and correlation keys. */
    public RecordPage events(String userKey, RecordQuery query) {
        return records.events(userKey, query);
    }

    /** A page of the decisions on the user's events. */
    public RecordPage decisions(String userKey, RecordQuery query) {
        return records.decisions(userKey, query);
    }

    /** A page of the actions taken on the user's events. */
    public RecordPage actions(String userKey, RecordQuery query) {
        return records.actions(userKey, query);
    }

    /** A fresh event id: {@code evt_<unix nanos>}. */
    public static String newEventId() {
        return TurnIds.itemId("evt");
    }
}
