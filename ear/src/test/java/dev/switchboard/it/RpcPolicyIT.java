package dev.switchboard.it;

import static dev.switchboard.it.Rpc.endOf;
import static dev.switchboard.it.Rpc.itemOf;
import static dev.switchboard.it.Rpc.method;
import static dev.switchboard.it.Rpc.params;
import static dev.switchboard.it.Rpc.progressOf;
import static dev.switchboard.it.Rpc.seq;
import static dev.switchboard.it.Rpc.str;
import static dev.switchboard.it.Rpc.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The follow-up policies of a busy thread ({@code switchboard.lanes.followup-policy}, docs/rpc.md
 * "Turns on busy threads", spec §11.2 H4): {@code collect} on DelegationIT's instance (HostileInputIT's), {@code
 * interrupt} on WebhooksIT's (as a user of its own) — classes whose turns the policy never acts on.
 * Also the fresh-state runtime (§17.1 item 3/4), which only a new database can show: HostileInputIT's
 * instance checks it as soon as it has started.
 */
@Order(9) // among the longest classes: started early in the parallel run (ear/pom.xml)
@ResourceLock(value = HostileInputIT.LOCK, mode = ResourceAccessMode.READ) // beside DelegationIT, never beside the classes that pause its instance
class RpcPolicyIT {

    private static final Duration TURN_TIMEOUT = Duration.ofSeconds(30);

    @AfterAll
    static void finished() {
        DelegationIT.finished(RpcPolicyIT.class);
        WebhooksIT.finished(RpcPolicyIT.class);
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
    }

    private static Rpc.Stream live(Rpc rpc, String thread) {
        Rpc.Stream s = rpc.stream(null, thread);
        s.await(n -> true, Duration.ofSeconds(10)); // the greeting: subscribed
        return s;
    }

    /**
     * A new database: running, nothing processed, session {@code main}, unset times null. Checked by
     * the instances this class runs on as soon as they have started, before any class uses them.
     */
    static void assertFreshRuntime(Rpc rpc) {
        JsonObject status = rpc.result("server/status", null);
        assertEquals("running", status.getString("state"), status::toString);
        assertEquals(0, status.getInt("events_processed"), status::toString);
        assertEquals("main", status.getString("session_id"), status::toString);
        assertEquals(JsonValue.NULL, status.get("last_event_at"), status::toString);
        assertEquals(JsonValue.NULL, status.get("paused_at"), status::toString);
        assertEquals(JsonValue.NULL, status.get("resumed_at"), status::toString);
        JsonObject thread = rpc.result("thread/start", null);
        assertEquals("main", thread.getString("thread_id"));
        assertEquals("main", thread.getString("session_id"));
        assertEquals(status, rpc.result("holon/status", null), "thread/start of the current session changes nothing");
    }

    /** The texts of a turn's user items, in order, joined with newlines. */
    private static String userTexts(List<JsonObject> items) {
        return items.stream().map(Rpc::text).collect(Collectors.joining("\n"));
    }

    private static boolean inOrder(String haystack, String first, String second) {
        int i = haystack.indexOf(first);
        return i >= 0 && haystack.indexOf(second, i + first.length()) > i;
    }

    @Test
    void collectSupersedesQueuedTurnsAndCarriesTheirInputForward() {
        Instance instance = DelegationIT.withCollectPolicy();
        Rpc rpc = new Rpc(instance.api);
        String thread = unique("collect");
        String aText = unique("a");
        String bText = unique("b");
        String cText = unique("c");
        try (Rpc.Stream s = live(rpc, thread)) {
            String a = rpc.startTurnId(thread, "sleep 2000; " + aText);
            s.await(progressOf(a, "running"), Duration.ofSeconds(15)); // A has started: it is not superseded
            String b = rpc.startTurnId(thread, bText);
            String c = rpc.startTurnId(thread, cText);

            JsonObject bEnd = s.await(endOf(b), Duration.ofSeconds(10));
            assertEquals("turn/interrupted", method(bEnd), bEnd::toString);
            assertEquals("superseded by newer turn (collect policy)", str(params(bEnd), "message"), bEnd::toString);
            assertEquals(c, str(params(bEnd), "merged_into"), bEnd::toString);
            assertEquals("interrupted", str(params(bEnd), "status"), bEnd::toString);

            JsonObject aEnd = s.await(endOf(a), TURN_TIMEOUT);
            assertEquals("turn/completed", method(aEnd), "collect does not cancel the running turn: " + aEnd);
            assertEquals(aText, str(params(aEnd), "message"));
            assertTrue(seq(bEnd) < seq(aEnd), "B was superseded when C arrived, while A still ran");

            JsonObject cEnd = s.await(endOf(c), TURN_TIMEOUT);
            assertEquals("turn/completed", method(cEnd), cEnd::toString);
            assertTrue(seq(aEnd) < seq(cEnd), "C ran after A (FIFO behind the running turn)");

            assertTrue(s.inbox.matching(itemOf(b, "assistant")).isEmpty(), "B never ran");
            assertTrue(s.inbox.matching(progressOf(b, "running")).isEmpty(), "B never ran");
            assertEquals(1, s.inbox.matching(endOf(b)).size());

            // B's input went into C's: visible in C's user items (notified or read) or in what C's run echoed
            String notified = userTexts(s.inbox.matching(itemOf(c, "user")).stream().map(Rpc::params).toList());
            JsonObject readC = rpc.readTurn(c);
            String read = userTexts(readC.getJsonArray("items").getValuesAs(JsonObject.class).stream()
                    .filter(i -> "user".equals(Rpc.role(i))).toList());
            String reply = s.inbox.matching(itemOf(c, "assistant")).stream().map(n -> text(params(n)))
                    .collect(Collectors.joining("\n"));
            assertTrue(inOrder(notified, bText, cText) || inOrder(read, bText, cText) || inOrder(reply, bText, cText),
                    () -> "C's input does not carry B's first; notified user items: " + notified + "; read: " + read
                            + "; reply: " + reply);
            assertEquals(1, s.inbox.matching(itemOf(c, "assistant")).size(), "C ran once");

            JsonObject readB = rpc.readTurn(b).getJsonObject("turn");
            assertEquals("interrupted", readB.getString("state"), readB::toString);
            assertEquals(c, readB.getString("merged_into"), readB::toString);
            assertEquals(JsonValue.NULL, readC.getJsonObject("turn").get("merged_into"));
        }
    }

    @Test
    void interruptCancelsTheRunningTurnAndSupersedesQueuedOnesWithoutCarryingInput() {
        Rpc rpc = new Rpc(WebhooksIT.withInterruptPolicy().api.as(WebhooksIT.POLICY_USER_TOKEN));
        String thread = unique("interrupt");
        String bText = unique("b");
        String cText = unique("c");
        try (Rpc.Stream s = live(rpc, thread)) {
            String a = rpc.startTurnId(thread, "sleep 20000; a");
            s.await(progressOf(a, "running"), Duration.ofSeconds(15));
            long posted = System.nanoTime();
            // B would itself run for 5 s should it start before C arrives, so it can only end interrupted
            String b = rpc.startTurnId(thread, "sleep 5000; " + bText);
            String c = rpc.startTurnId(thread, cText);

            JsonObject aEnd = s.await(endOf(a), Duration.ofSeconds(10));
            assertTrue(System.nanoTime() - posted < Duration.ofSeconds(10).toNanos());
            assertEquals("turn/interrupted", method(aEnd), "the running turn is interrupted: " + aEnd);
            assertEquals("interrupted", str(params(aEnd), "status"), aEnd::toString);
            assertTrue(s.inbox.matching(itemOf(a, "assistant")).isEmpty(), "A's late result is fenced out");

            JsonObject bEnd = s.await(endOf(b), Duration.ofSeconds(10));
            assertEquals("turn/interrupted", method(bEnd), bEnd::toString);
            assertEquals("interrupted", str(params(bEnd), "status"), bEnd::toString);
            assertTrue(s.inbox.matching(itemOf(b, "assistant")).isEmpty(), "B never replied");
            boolean bRan = !s.inbox.matching(progressOf(b, "running")).isEmpty();
            if (!bRan) {
                // the usual case: C arrived while B still waited for A's cancel to complete
                assertEquals("superseded by newer turn (interrupt policy)", str(params(bEnd), "message"), bEnd::toString);
            }

            JsonObject cEnd = s.await(endOf(c), TURN_TIMEOUT);
            assertEquals("turn/completed", method(cEnd), cEnd::toString);
            assertEquals(cText, str(params(cEnd), "message"), "nothing carried into C");
            List<JsonObject> cReplies = s.inbox.matching(itemOf(c, "assistant"));
            assertEquals(1, cReplies.size());
            assertEquals(cText, text(params(cReplies.get(0))));
            assertEquals(List.of(cText), s.inbox.matching(itemOf(c, "user")).stream().map(n -> text(params(n))).toList());
            JsonObject readC = rpc.readTurn(c);
            assertTrue(readC.getJsonArray("items").getValuesAs(JsonObject.class).stream()
                    .noneMatch(i -> text(i).contains(bText)), readC::toString);
            assertEquals(1, s.inbox.matching(endOf(a)).size());
            assertEquals(1, s.inbox.matching(endOf(b)).size());
        }
    }
}
