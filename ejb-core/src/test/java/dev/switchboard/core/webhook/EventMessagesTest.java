package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.NotificationLog.LogEntry;
import dev.switchboard.core.turn.TurnRuns.TurnRun;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunState;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventMessagesTest {

    private final EventMessages events = new EventMessages(64 * 1024);
    private final List<String> turnsAsked = new ArrayList<>();

    private static Endpoint endpoint(String id, String user, List<String> types, String thread, boolean enabled) {
        return new Endpoint(id, user, "https://x.example/" + id, null, types, thread, "sealed", null, null, enabled, null,
                0, 0);
    }

    private List<TurnRun> runs(String turnId) {
        turnsAsked.add(turnId);
        return List.of(new TurnRun("run-1", RunKind.MESSAGE, 1, RunState.SUCCEEDED, null, null, null),
                new TurnRun("run-2", RunKind.RESUMPTION, 2, RunState.FAILED, "cancelled", "cancelled", null),
                new TurnRun("run-3", RunKind.TURN, 3, RunState.FAILED, "engine_error", "boom", null));
    }

    private static LogEntry completed(String thread) {
        return new LogEntry(42, "alice", thread, "turn/completed",
                "{\"turn_id\":\"turn-1\",\"type\":\"completed\",\"thread_id\":\"" + thread + "\"}", 1_700_000_000_000L);
    }

    @Test
    void aTurnsEndIsOneMessagePerEndpointThatHearsIt() {
        List<Endpoint> endpoints = List.of(endpoint("a", "alice", WebhookEvents.ALL, null, true),
                endpoint("b", "alice", List.of(WebhookEvents.TURN_FAILED), null, true),
                endpoint("c", "alice", List.of(WebhookEvents.TURN_COMPLETED), "other-thread", true),
                endpoint("d", "alice", List.of(WebhookEvents.TURN_COMPLETED), "t1", true));
        List<WebhookMessage> made = events.of(completed("t1"), endpoints.subList(1, 4), this::runs, 5);
        assertEquals(1, made.size());
        WebhookMessage m = made.get(0);
        assertEquals("d", m.endpointId());
        assertEquals("t1", m.lane());
        assertEquals(42, m.seq());
        assertEquals(WebhookMessage.PENDING, m.state());
        assertTrue(m.msgId().startsWith("msg_"));
        JsonObject body = Jsons.readObject(m.payload());
        assertEquals("turn.completed", body.getString("type"));
        assertEquals("2023-11-14T22:13:20Z", body.getString("timestamp"));
        assertEquals("turn-1", body.getJsonObject("data").getString("turn_id"));
        assertEquals(42, body.getJsonObject("data").getInt("seq"));
        assertEquals(List.of(), turnsAsked, "no endpoint hears run events: the turn's runs are not read");
    }

    @Test
    void aTurnsEndBringsItsRunsEventsToEndpointsThatHearThem() {
        List<Endpoint> endpoints = List.of(endpoint("a", "alice", List.of(WebhookEvents.RUN_SUCCEEDED,
                WebhookEvents.RUN_CANCELLED, WebhookEvents.RUN_FAILED), null, true));
        List<WebhookMessage> made = events.of(completed("t1"), endpoints, this::runs, 5);
        assertEquals(List.of("run.succeeded", "run.cancelled", "run.failed"), made.stream().map(WebhookMessage::eventType).toList());
        JsonObject failed = Jsons.readObject(made.get(2).payload()).getJsonObject("data");
        assertEquals("run-3", failed.getString("run_id"));
        assertEquals("failed", failed.getString("state"));
        assertEquals("engine_error", failed.getJsonObject("error").getString("code"));
        assertEquals("t1", failed.getString("thread_id"));
        assertEquals(List.of("turn-1"), turnsAsked);
        assertNotEquals(made.get(0).msgId(), made.get(1).msgId(), "every message has its own webhook-id");
    }

    @Test
    void notificationsThatAreNoEventMakeNothing() {
        List<Endpoint> all = List.of(endpoint("a", "alice", WebhookEvents.ALL, null, true));
        assertEquals(List.of(), events.of(new LogEntry(1, "alice", "t", "delegation/hop", "{\"kind\":\"dispatched\"}", 0),
                all, this::runs, 0));
        assertEquals(1, events.of(new LogEntry(1, "alice", "t", "delegation/hop", "{\"kind\":\"replied\"}", 0),
                all, this::runs, 0).size());
        assertEquals(List.of(), events.of(completed("t1"), List.of(endpoint("a", "alice", WebhookEvents.ALL, null, false)),
                this::runs, 0), "a disabled endpoint hears nothing");
    }

    @Test
    void anEventAboutNoThreadGoesInTheEmptyLaneAndNotToThreadFilteredEndpoints() {
        LogEntry received = new LogEntry(7, "alice", null, "event/received", "{\"event_id\":\"e1\"}", 0);
        List<WebhookMessage> made = events.of(received, List.of(endpoint("a", "alice", WebhookEvents.ALL, null, true),
                endpoint("b", "alice", WebhookEvents.ALL, "t1", true)), this::runs, 0);
        assertEquals(1, made.size());
        assertEquals("", made.get(0).lane());
        assertEquals("ingress.event.received", made.get(0).eventType());
    }

    @Test
    void aBodyOverTheCapKeepsOnlyWhatIdentifiesTheEvent() {
        EventMessages small = new EventMessages(1024);
        String body = small.body("turn.completed", "2026-01-01T00:00:00Z", Jsons.createObjectBuilder()
                .add("turn_id", "turn-1").add("thread_id", "t1").add("message", "x".repeat(5000)).add("seq", 9).build());
        assertTrue(body.length() < 1024, body);
        JsonObject data = Jsons.readObject(body).getJsonObject("data");
        assertTrue(data.getBoolean("truncated"));
        assertEquals("turn-1", data.getString("turn_id"));
        assertEquals(9, data.getInt("seq"));
        assertFalse(data.containsKey("message"));
    }

    @Test
    void turnEndingsMapToTheirTypes() {
        assertEquals("turn.failed", WebhookEvents.typeOf("turn/interrupted", Jsons.readObject("{\"status\":\"failed\"}")));
        assertEquals("turn.cancelled", WebhookEvents.typeOf("turn/interrupted", Jsons.readObject("{\"status\":\"interrupted\"}")));
        assertEquals("approval.requested", WebhookEvents.typeOf("approval/requested", Jsons.readObject("{}")));
        assertEquals("auth.required", WebhookEvents.typeOf("auth/required", Jsons.readObject("{}")));
        assertEquals(null, WebhookEvents.typeOf("item/delta", Jsons.readObject("{}")));
        assertEquals(null, WebhookEvents.runType("queued", null));
    }
}
