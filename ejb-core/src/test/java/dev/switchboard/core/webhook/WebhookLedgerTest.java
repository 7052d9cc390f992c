package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Webhook delivery across instances, built outside the container on PostgreSQL and on the embedded
 * H2: two instances' claims on one database. A message is taken by one instance at a time (its
 * lease, by the database's clock); a lane's next message goes to the sender that delivered the one
 * before; a lease that runs out (the instance died mid-attempt) is taken again by the other, and
 * the first one's late end changes nothing but the log — each message delivered once.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class WebhookLedgerTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final RetrySchedule SCHEDULE = new RetrySchedule(RetrySchedule.parse(RetrySchedule.DEFAULT), 0, () -> 0);
    private static final WebhookLedger.Result DELIVERED = new WebhookLedger.Result(200, 5, WebhookAttempt.DELIVERED, "ok");

    private final Wiring w;

    /**
     * The stores over one database and the ledger on them: one object serves as both instances, as
     * the ledger keeps nothing between calls — what one instance has taken is in the database.
     */
    private record Wiring(LocalTransactions tx, Statements statements, WebhookMessages messages, WebhookEndpoints endpoints,
            WebhookLedger ledger) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_webhook_ledger"));
            Statements statements = new Statements(tx.dataSource());
            WebhookMessages messages = new WebhookMessages();
            messages.statements = statements;
            WebhookEndpoints endpoints = new WebhookEndpoints();
            endpoints.statements = statements;
            WebhookLedger ledger = new WebhookLedger(); // claims and deliveries need only these two stores
            ledger.messages = messages;
            ledger.endpoints = endpoints;
            return new Wiring(tx, statements, messages, endpoints, ledger);
        }
    }

    WebhookLedgerTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    private Endpoint endpoint() {
        long now = System.currentTimeMillis();
        Endpoint e = new Endpoint("ep_" + UUID.randomUUID(), "user-" + UUID.randomUUID(), "https://hooks.example.com/in",
                null, List.of("turn.completed"), null, "sealed-secret", null, null, true, null, now, now);
        w.tx().run(() -> w.endpoints().insert(e));
        return e;
    }

    private List<WebhookLedger.Claimed> claim() {
        return claim(100);
    }

    private List<WebhookLedger.Claimed> claim(int limit) {
        return w.tx().inTransaction(() -> w.ledger().claim(limit, LEASE));
    }

    /** The claims of {@code endpoint}'s messages in {@code claims} (other tests' endpoints share the database). */
    private static List<String> of(Endpoint endpoint, List<WebhookLedger.Claimed> claims) {
        return claims.stream().filter(c -> c.endpoint().id().equals(endpoint.id())).map(c -> c.message().msgId()).toList();
    }

    private WebhookLedger.Claimed finish(WebhookLedger.Claimed c) {
        return w.tx().inTransaction(() -> w.ledger().finish(c, DELIVERED, SCHEDULE, System.currentTimeMillis(), LEASE, true));
    }

    private WebhookMessage find(Endpoint e, String msgId) {
        return w.tx().inTransaction(() -> w.messages().find(e.id(), msgId));
    }

    @Test
    void aMessageIsTakenByOneInstanceAtATimeAndALeaseThatRanOutIsTakenAgainAndDeliveredOnce() {
        Endpoint e = endpoint();
        long now = System.currentTimeMillis();
        w.tx().run(() -> w.messages().insert(List.of(
                new WebhookMessage(0, "msg_1", e.id(), "lane-a", "turn.completed", "{}", 1, WebhookMessage.PENDING, 0, 0, null, now, null),
                new WebhookMessage(0, "msg_2", e.id(), "lane-b", "turn.completed", "{}", 2, WebhookMessage.PENDING, 0, 0, null, now, null),
                new WebhookMessage(0, "msg_3", e.id(), "lane-a", "turn.completed", "{}", 3, WebhookMessage.PENDING, 0, 0, null, now, null))));

        List<WebhookLedger.Claimed> onA = claim();
        assertEquals(List.of("msg_1", "msg_2"), of(e, onA), "instance A takes the heads of both lanes");
        assertEquals(List.of(), of(e, claim()), "instance B finds nothing A holds");

        WebhookLedger.Claimed first = onA.stream().filter(c -> c.message().msgId().equals("msg_1")).findFirst().orElseThrow();
        WebhookLedger.Claimed next = finish(first);
        assertNotNull(next, "the lane's next message goes to the sender that delivered the one before it");
        assertEquals("msg_3", next.message().msgId());
        assertEquals(List.of(), of(e, claim()), "instance B finds nothing: A holds msg_2 and msg_3");
        assertNull(finish(next));

        // A dies in msg_2's attempt: its lease runs out (the step a crash takes, made at once).
        WebhookLedger.Claimed lost = onA.stream().filter(c -> c.message().msgId().equals("msg_2")).findFirst().orElseThrow();
        long expired = w.tx().inTransaction(() -> w.statements().update("UPDATE webhook_messages SET due_at = due_at - ?"
                + " WHERE endpoint_id = ? AND msg_id = 'msg_2'", s -> {
                    s.setLong(1, LEASE.toMillis() + 1_000);
                    s.setString(2, e.id());
                }, "a lease run out"));
        assertEquals(1, expired);
        List<WebhookLedger.Claimed> onB = claim();
        assertEquals(List.of("msg_2"), of(e, onB), "instance B takes the message whose lease ran out");
        WebhookLedger.Claimed retaken = onB.stream().filter(c -> c.endpoint().id().equals(e.id())).findFirst().orElseThrow();
        assertEquals(2, retaken.attempt());

        assertNull(finish(lost), "A's late end takes nothing next");
        assertEquals(WebhookMessage.PENDING, find(e, "msg_2").state(), "and ends nothing: the message is B's attempt now");
        finish(retaken);
        for (String msgId : List.of("msg_1", "msg_2", "msg_3")) {
            assertEquals(WebhookMessage.DELIVERED, find(e, msgId).state(), msgId);
        }
        assertEquals(List.of(), of(e, claim()), "nothing is taken again once delivered");
    }

    /**
     * A message in its back-off when its instance dies: nothing of it is in memory, so the other
     * instance takes it — under its one id, as its next attempt — once the wait is over by the
     * database's clock, not before, and the lane's next message waits behind it.
     */
    @Test
    void aMessageInItsBackOffIsTakenByAnotherInstanceOnlyOnceItsWaitIsOverAndItsLaneWaitsBehindIt() {
        Endpoint e = endpoint();
        String m1 = "msg_" + UUID.randomUUID(); // message ids are unique across endpoints
        String m2 = "msg_" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        w.tx().run(() -> w.messages().insert(List.of(
                new WebhookMessage(0, m1, e.id(), "lane-a", "turn.completed", "{}", 1, WebhookMessage.PENDING, 0, 0, null, now, null),
                new WebhookMessage(0, m2, e.id(), "lane-a", "turn.completed", "{}", 2, WebhookMessage.PENDING, 0, 0, null, now, null))));
        WebhookLedger.Claimed first = claim().stream().filter(c -> c.endpoint().id().equals(e.id())).findFirst().orElseThrow();
        assertEquals(m1, first.message().msgId());
        WebhookLedger.Result refused = new WebhookLedger.Result(500, 5, WebhookAttempt.RETRY, "HTTP 500");
        assertNull(w.tx().inTransaction(() -> w.ledger().finish(first, refused, SCHEDULE, System.currentTimeMillis(), LEASE, true)),
                "a failed attempt takes nothing next");

        // Instance A is gone; B finds the message waiting (the schedule's first wait, 5 s) and its lane behind it.
        assertEquals(List.of(), of(e, claim()), "nothing is due during the back-off, msg_2 neither");
        int waited = w.tx().inTransaction(() -> w.statements().update("UPDATE webhook_messages SET due_at = due_at - ?"
                + " WHERE msg_id = ?", s -> {
                    s.setLong(1, 6_000);
                    s.setString(2, m1);
                }, "the back-off passed"));
        assertEquals(1, waited);
        List<WebhookLedger.Claimed> onB = claim();
        assertEquals(List.of(m1), of(e, onB), "the message is taken again, alone: its lane still waits");
        WebhookLedger.Claimed again = onB.stream().filter(c -> c.endpoint().id().equals(e.id())).findFirst().orElseThrow();
        assertEquals(2, again.attempt(), "its next attempt");
        WebhookLedger.Claimed next = finish(again);
        assertNotNull(next, "then the lane goes on");
        assertEquals(m2, next.message().msgId());
        finish(next);
        assertEquals(WebhookMessage.DELIVERED, find(e, m1).state());
        assertEquals(2, w.tx().inTransaction(() -> w.messages().attempts(e.id(), m1, Long.MAX_VALUE, 10)).size(),
                "both attempts in its log, under the one id");
    }

    /**
     * A disabled endpoint's messages wait, and take no place on the page of due messages: with more
     * of its lanes due than a claim takes, an enabled endpoint's later message is still taken. Once
     * the endpoint is enabled again, its lanes go on where they were, no attempt spent meanwhile.
     */
    @Test
    void aDisabledEndpointsMessagesWaitWithoutCrowdingOutAnotherEndpointsAndGoOnOnceItIsEnabled() {
        claim(); // what other tests left due is taken: the page below holds only this test's messages
        Endpoint off = endpoint();
        Endpoint on = endpoint();
        long now = System.currentTimeMillis();
        List<WebhookMessage> waiting = List.of(
                new WebhookMessage(0, "msg_" + UUID.randomUUID(), off.id(), "lane-1", "turn.completed", "{}", 1, WebhookMessage.PENDING, 0, 0, null, now, null),
                new WebhookMessage(0, "msg_" + UUID.randomUUID(), off.id(), "lane-2", "turn.completed", "{}", 2, WebhookMessage.PENDING, 0, 0, null, now, null),
                new WebhookMessage(0, "msg_" + UUID.randomUUID(), off.id(), "lane-3", "turn.completed", "{}", 3, WebhookMessage.PENDING, 0, 0, null, now, null));
        w.tx().run(() -> {
            w.messages().insert(waiting); // due first: earlier ids
            w.endpoints().disable(off.id(), "failed", now);
        });
        String later = "msg_" + UUID.randomUUID();
        w.tx().run(() -> w.messages().insert(List.of(
                new WebhookMessage(0, later, on.id(), "lane-1", "turn.completed", "{}", 4, WebhookMessage.PENDING, 0, 0, null, now, null))));

        List<WebhookLedger.Claimed> page = claim(2);
        assertEquals(List.of(later), of(on, page), "the enabled endpoint's message, past three lanes of a disabled one");
        assertEquals(List.of(), of(off, page), "nothing of the disabled endpoint");
        finish(page.stream().filter(c -> c.endpoint().id().equals(on.id())).findFirst().orElseThrow());

        int enabled = w.tx().inTransaction(() -> w.statements().update("UPDATE webhook_endpoints SET enabled = TRUE,"
                + " disabled_reason = NULL WHERE id = ?", s -> s.setString(1, off.id()), "enabling the endpoint again"));
        assertEquals(1, enabled);
        List<WebhookLedger.Claimed> resumed = claim();
        assertEquals(waiting.stream().map(WebhookMessage::msgId).toList(), of(off, resumed), "its three lanes go on");
        resumed.stream().filter(c -> c.endpoint().id().equals(off.id()))
                .forEach(c -> assertEquals(1, c.attempt(), "no attempt spent while it was disabled: " + c.message().msgId()));
    }
}
