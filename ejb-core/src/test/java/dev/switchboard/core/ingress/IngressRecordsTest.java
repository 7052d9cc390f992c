package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import jakarta.json.JsonObject;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The ingress records' one store built outside the container, on PostgreSQL and on the embedded
 * H2: the pipeline's rows (an event journalled, settled, held, locked and found by its run; its
 * decisions and actions), what the pipeline's rules read of them, and the records API's pages with
 * their filters and cursors — each scoped to its user. (Their retention and counts are
 * {@code IngressRetentionTest}'s; two releases of one held event, {@code IngressRecordsLockTest}'s; the
 * pipeline end to end is {@code IngressEventsIT}'s.)
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class IngressRecordsTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);

    private final Wiring w;

    private record Wiring(LocalTransactions tx, IngressRecords records) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_ingress_records"));
            return new Wiring(tx, new IngressRecords(new Statements(tx.dataSource())));
        }
    }

    IngressRecordsTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    private static IngressEvent event(String user, String id, String source, String repo, String dedupeKey, String lane,
            String status, long at) {
        return new IngressEvent(user, id, source, "ci.done", repo, dedupeKey, lane, status, null, null,
                "{\"id\":\"" + id + "\",\"source\":\"" + source + "\",\"type\":\"ci.done\"}", at);
    }

    private IngressEvent journal(IngressEvent e) {
        w.tx().run(() -> w.records().insert(e));
        return e;
    }

    private static String user() {
        return "user-" + UUID.randomUUID();
    }

    @Test
    void anEventIsJournalledSettledAndFoundByItsRunAndIdsAreEachUsersOwn() {
        String user = user();
        IngressEvent e = journal(event(user, "evt-1", "ci", "acme/x", "k-1", "event:acme/x", EventStatus.ACCEPTED, 1_000));
        assertTrue(w.tx().inTransaction(() -> w.records().exists(user, "evt-1")));
        assertFalse(w.tx().inTransaction(() -> w.records().exists("another", "evt-1")), "another user's id is not theirs");
        journal(event("another", "evt-1", "ci", "acme/x", null, "event:acme/x", EventStatus.ACCEPTED, 1_000)); // theirs too

        String run = UUID.randomUUID().toString();
        IngressEvent settled = w.tx().inTransaction(() -> w.records().settle(e, EventStatus.ACCEPTED, run, "turn-1"));
        assertEquals(e.settled(EventStatus.ACCEPTED, run, "turn-1"), settled);
        assertEquals(Optional.of(settled), w.tx().inTransaction(() -> w.records().acceptedInto(run)));
        assertEquals(Optional.of(settled), w.tx().inTransaction(() -> w.records().lock(user, "evt-1")));
        assertEquals(Optional.empty(), w.tx().inTransaction(() -> w.records().lock(user, "evt-none")));

        w.tx().run(() -> w.records().settle(settled, EventStatus.DUPLICATE, run, "turn-1"));
        assertEquals(Optional.empty(), w.tx().inTransaction(() -> w.records().acceptedInto(run)), "a duplicate is not its run's event");
    }

    @Test
    void heldEventsComeOldestFirstWithTheirKeysAndTicksAndTheirUsers() {
        String user = user();
        journal(event(user, "h-2", "ci", "acme/x", "k-2", "event:acme/x", EventStatus.HELD, 2_000));
        journal(event(user, "h-1", "ci", "acme/y", "k-1", "event:acme/y", EventStatus.HELD, 1_000));
        journal(event(user, "h-3", "timer", "acme/clock", "timer:acme/clock:60", "event:acme/clock", EventStatus.HELD, 3_000));
        journal(event(user, "a-1", "ci", "acme/x", "k-9", "event:acme/x", EventStatus.ACCEPTED, 500));

        assertEquals(List.of("h-1", "h-2"), w.tx().inTransaction(() -> w.records().held(user, 2)).stream()
                .map(IngressEvent::eventId).toList(), "oldest first, a batch at most");
        assertEquals(List.of("k-2"), w.tx().inTransaction(() -> w.records().heldKeys(user, "k-2", "event:none")), "by its key");
        assertEquals(List.of("k-2"), w.tx().inTransaction(() -> w.records().heldKeys(user, null, "event:acme/x")),
                "by its lane (the accepted one there is not held)");
        assertEquals(List.of(), w.tx().inTransaction(() -> w.records().heldKeys("another", "k-2", "event:acme/x")));
        assertTrue(w.tx().inTransaction(() -> w.records().tickHeld(user, "acme/clock")));
        assertFalse(w.tx().inTransaction(() -> w.records().tickHeld(user, "acme/x")), "a held event, not a tick");
        assertTrue(w.tx().inTransaction(() -> w.records().usersWithHeldEvents()).contains(user));
    }

    @Test
    void pagesFilterByKeyAndTimeAndGoOnFromTheirCursorEachUsersOwn() {
        String user = user();
        for (int i = 1; i <= 5; i++) {
            IngressEvent e = journal(event(user, "p-" + i, i % 2 == 0 ? "github" : "ci", "acme/x", null,
                    "event:acme/" + (i <= 3 ? "x" : "y"), EventStatus.ACCEPTED, i * 1_000L));
            String run = "run-" + i;
            w.tx().run(() -> {
                w.records().settle(e, EventStatus.ACCEPTED, run, "turn-" + run);
                w.records().decide("d-" + e.eventId(), e, "forward_event", null, false, e.receivedAt());
                w.records().act("a-" + e.eventId(), e, "accepted", null, run, e.receivedAt(), null);
            });
        }
        journal(event("another", "p-9", "ci", "acme/x", null, "event:acme/x", EventStatus.ACCEPTED, 9_000));

        RecordQuery all = new RecordQuery(null, null, null, null, null, null, null, null, null, null, 2);
        RecordPage first = w.tx().inTransaction(() -> w.records().events(user, all));
        assertEquals(List.of("p-1", "p-2"), ids(first));
        RecordPage second = w.tx().inTransaction(() -> w.records().events(user, all.withAfter(first.next())));
        assertEquals(List.of("p-3", "p-4"), ids(second));
        RecordPage last = w.tx().inTransaction(() -> w.records().events(user, all.withAfter(second.next())));
        assertEquals(List.of("p-5"), ids(last));
        assertEquals(null, last.next(), "no page after the last");

        JsonObject shown = first.records().get(0);
        assertEquals("accepted", shown.getString("status"));
        assertEquals("event:acme/x", shown.getString("session_key"));
        assertEquals("run-1", shown.getString("run_id"));
        assertEquals("turn-run-1", shown.getString("turn_id"));
        assertEquals("1970-01-01T00:00:01Z", shown.getString("received_at"));

        RecordQuery githubOnY = new RecordQuery(null, "event:acme/y", null, null, null, "github", null, null, null, null, 10);
        assertEquals(List.of("p-4"), ids(w.tx().inTransaction(() -> w.records().events(user, githubOnY))));
        RecordQuery window = new RecordQuery(null, null, null, null, null, null, null, 2_000L, 4_000L, null, 10);
        assertEquals(List.of("p-2", "p-3"), ids(w.tx().inTransaction(() -> w.records().events(user, window))));
        RecordQuery ofRun = new RecordQuery(null, null, "run-3", null, null, null, null, null, null, null, 10);
        assertEquals(List.of("p-3"), ids(w.tx().inTransaction(() -> w.records().events(user, ofRun))));

        RecordPage decisions = w.tx().inTransaction(() -> w.records().decisions(user, ofRun));
        assertEquals(1, decisions.records().size());
        assertEquals("d-p-3", decisions.records().get(0).getString("id"));
        assertEquals("forward_event", decisions.records().get(0).getString("type"));
        assertEquals("run-3", decisions.records().get(0).getString("run_id"));
        RecordPage actions = w.tx().inTransaction(() -> w.records().actions(user, new RecordQuery("p-5", null, null, null,
                null, null, "accepted", null, null, null, 10)));
        assertEquals(1, actions.records().size());
        JsonObject action = actions.records().get(0);
        assertEquals("a-p-5", action.getString("id"));
        assertEquals(action.getString("started_at"), action.getString("ended_at"), "a hand-off ends as it starts");
        assertEquals("turn-run-5", action.getString("turn_id"));
        assertEquals(List.of(), ids(w.tx().inTransaction(() -> w.records().events("nobody", all))));
    }

    private static List<String> ids(RecordPage page) {
        return page.records().stream().map(e -> e.getString("id")).toList();
    }
}
