package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.runtime.ProcessedEvents;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Ingress retention's deletes built outside the container, on PostgreSQL and on the embedded H2:
 * the records of an event (the event, its decisions, its actions) go once it is older than their
 * retention, except an event a pause still holds; dedupe keys are remembered for their own age
 * (H9), and only the ingress doors' — a message's idempotency key is not a dedupe key. Also the
 * count of a user's accepted events that {@code server/status} reports, read from the same table.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class IngressRetentionTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);
    private static final long DAY = Duration.ofDays(1).toMillis();

    private final Wiring w;

    private record Wiring(LocalTransactions tx, Statements statements, IngressRecords records, IdempotencyKeys keys) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_ingress_retention"));
            Statements statements = new Statements(tx.dataSource());
            return new Wiring(tx, statements, new IngressRecords(statements), new IdempotencyKeys(statements));
        }
    }

    IngressRetentionTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    /** An event with one decision and one action, received at {@code receivedAt}; returns its id. */
    private String event(String user, String status, long receivedAt) {
        String eventId = "evt-" + UUID.randomUUID();
        w.tx().run(() -> {
            w.statements().update("INSERT INTO ingress_events (event_id, user_key, source, type, session_key, status,"
                    + " envelope, received_at) VALUES (?, ?, 'ci', 'ci.done', 'event:acme/x', ?, '{}', ?)", s -> {
                        s.setString(1, eventId);
                        s.setString(2, user);
                        s.setString(3, status);
                        s.setLong(4, receivedAt);
                    }, "an event");
            w.statements().update("INSERT INTO ingress_decisions (decision_id, event_id, type, skipped, created_at, user_key)"
                    + " VALUES (?, ?, 'forward_event', FALSE, ?, ?)", s -> {
                        s.setString(1, "decision-" + eventId);
                        s.setString(2, eventId);
                        s.setLong(3, receivedAt);
                        s.setString(4, user);
                    }, "its decision");
            w.statements().update("INSERT INTO ingress_actions (action_id, event_id, status, started_at, user_key)"
                    + " VALUES (?, ?, 'accepted', ?, ?)", s -> {
                        s.setString(1, "action-" + eventId);
                        s.setString(2, eventId);
                        s.setLong(3, receivedAt);
                        s.setString(4, user);
                    }, "its action");
        });
        return eventId;
    }

    private long count(String table, String user) {
        return w.tx().inTransaction(() -> w.statements().query("SELECT count(*) FROM " + table + " WHERE user_key = ?",
                s -> s.setString(1, user), rs -> rs.getLong(1), "a test count").get(0));
    }

    private void remember(String user, String source, String key, long at) {
        w.tx().run(() -> w.statements().update("INSERT INTO message_ingest (user_key, source, idempotency_key, run_id,"
                + " payload_hash, created_at) VALUES (?, ?, ?, ?, 'h', ?)", s -> {
                    s.setString(1, user);
                    s.setString(2, source);
                    s.setString(3, key);
                    s.setString(4, UUID.randomUUID().toString());
                    s.setLong(5, at);
                }, "a remembered key"));
    }

    @Test
    void recordsPastTheirRetentionAreDeletedButHeldEventsAreKept() {
        String user = "user-" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        event(user, "accepted", now - 31 * DAY);
        event(user, "deferred", now - 31 * DAY); // held by a pause: kept whatever its age
        event(user, "accepted", now - DAY);

        assertEquals(0, w.tx().inTransaction(() -> w.records().forget(now - 40 * DAY)), "younger than the retention: kept");
        assertEquals(3, count("ingress_events", user));

        assertEquals(1, w.tx().inTransaction(() -> w.records().forget(now - 30 * DAY)), "the aged event that is not held");
        assertEquals(2, count("ingress_events", user), "the held event and the young one are left");
        assertEquals(2, count("ingress_decisions", user), "with their decisions");
        assertEquals(2, count("ingress_actions", user), "and their actions; the aged event's went with it");
    }

    @Test
    void aDedupeKeyIsForgottenAfterItsRetentionAndAMessagesIdempotencyKeyIsNot() {
        String user = "user-" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        String dedupeSource = IngressLedger.runSource("ci");
        remember(user, dedupeSource, "acme/x:build:1", now - 31 * DAY);
        remember(user, dedupeSource, "acme/x:build:2", now - DAY);
        remember(user, "http", "k-1", now - 31 * DAY); // a message's idempotency key, as old

        assertEquals(1, w.tx().inTransaction(() -> w.keys().forget(IngressLedger.runSource(""), now - 30 * DAY)));
        assertEquals(2, count("message_ingest", user), "the young dedupe key and the message's key are left");
        assertEquals(1, w.tx().inTransaction(() -> w.statements().query("SELECT count(*) FROM message_ingest"
                + " WHERE user_key = ? AND source = 'http'", s -> s.setString(1, user), rs -> rs.getLong(1), "a test count")
                .get(0)));
    }

    @Test
    void theProcessedCountIsTheUsersAcceptedEventsWithWhenTheNewestArrived() {
        String user = "user-" + UUID.randomUUID();
        assertEquals(new ProcessedEvents.Count(0, null), w.tx().inTransaction(() -> w.records().accepted(user)), "none yet");
        event(user, "accepted", 1_000);
        event(user, "accepted", 3_000);
        event(user, "deferred", 5_000); // held by a pause: not handed off yet
        event(user, "duplicate", 6_000);
        event("someone-else", "accepted", 9_000);
        assertEquals(new ProcessedEvents.Count(2, 3_000L), w.tx().inTransaction(() -> w.records().accepted(user)));
    }
}
