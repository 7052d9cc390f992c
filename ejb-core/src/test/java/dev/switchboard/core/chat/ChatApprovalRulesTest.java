package dev.switchboard.core.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.conversation.Approvals;
import dev.switchboard.core.conversation.Redaction;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The chat gateway's approval pieces: stored requests, answers, tool needs and "always". */
class ChatApprovalRulesTest {

    private static JsonObject call(String id, String name, String arguments) {
        return Json.createObjectBuilder().add("type", "function_call").add("call_id", id).add("name", name)
                .add("arguments", arguments).build();
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void aPendingRequestShowsRedactedParametersAndKeepsTheRawOnesAndTheCallsLeft() {
        JsonObject waiting = call("c1", "deploy", "{\"target\":\"prod\",\"api_key\":\"k-123\"}");
        JsonObject after = call("c2", "deploy", "{}");
        ChatPending p = ChatPending.of(List.of(waiting, after), name -> Approvals.Need.UNLESS_AUTO_APPROVED,
                Redaction.DEFAULT, "turn_1", 5);
        assertEquals("k-123", p.parameters().getString("api_key"), "raw, for execution");
        assertEquals("[REDACTED]", p.displayParameters().getString("api_key"));
        assertFalse(p.shown("t").toString().contains("k-123"), "clients see the redacted ones only");
        assertFalse(p.description().contains("k-123"));
        assertTrue(p.allowAlways());
        assertEquals("c1", p.toolCallId());
        assertEquals(List.of(after), p.approval().deferredToolCalls());
        assertEquals(p, ChatPending.fromJson(p.toJson()));
        assertFalse(ChatPending.of(List.of(waiting), name -> Approvals.Need.ALWAYS, Redaction.DEFAULT, "t", 0).allowAlways(),
                "a tool that always asks offers no always");
        assertEquals("not json", ChatPending.of(List.of(call("c", "x", "not json")), n -> Approvals.Need.ALWAYS, Redaction.DEFAULT, "t", 0)
                .parameters().getString("arguments"));
    }

    @Test
    void answersAreApproveAlwaysOrDenyWithAnOptionalRequestId() {
        UUID id = UUID.randomUUID();
        assertEquals(new ChatAnswer(Optional.of(id), true, false, "web"),
                ChatAnswer.of(json("{\"action\":\"approve\",\"request_id\":\"" + id + "\"}")));
        assertEquals(new ChatAnswer(Optional.empty(), true, true, "telegram"),
                ChatAnswer.of(json("{\"action\":\"always\",\"channel\":\"telegram\"}")));
        assertEquals(new ChatAnswer(Optional.empty(), false, false, "web"), ChatAnswer.of(json("{\"action\":\"deny\"}")));
        assertEquals("action", assertThrows(ChatMessage.InvalidException.class,
                () -> ChatAnswer.of(json("{\"action\":\"maybe\"}"))).field());
        assertEquals("action", assertThrows(ChatMessage.InvalidException.class, () -> ChatAnswer.of(json("{}"))).field());
        assertEquals("request_id", assertThrows(ChatMessage.InvalidException.class,
                () -> ChatAnswer.of(json("{\"action\":\"deny\",\"request_id\":\"nope\"}"))).field());
    }

    @Test
    void toolNeedsAreConfiguredByName() {
        assertEquals(Map.of("a", Approvals.Need.NEVER, "b", Approvals.Need.UNLESS_AUTO_APPROVED, "c", Approvals.Need.ALWAYS),
                ChatSettings.parseNeeds(" a=never, b=once ,c=ALWAYS,"));
        assertEquals(Map.of(), ChatSettings.parseNeeds(" "));
        assertThrows(IllegalStateException.class, () -> ChatSettings.parseNeeds("a=sometimes"));
        assertThrows(IllegalStateException.class, () -> ChatSettings.parseNeeds("a"));
    }

    @Test
    void toolCredentialsAreConfiguredByName() {
        assertEquals(Map.of("http_get", "github", "b", "x.y-z"), ChatSettings.parseCredentials(" http_get=github, b=x.y-z,"));
        assertEquals(Map.of(), ChatSettings.parseCredentials(" "));
        assertThrows(IllegalStateException.class, () -> ChatSettings.parseCredentials("http_get"));
        assertThrows(IllegalStateException.class, () -> ChatSettings.parseCredentials("http_get=two words"));
    }

    @Test
    void anAuthPromptKeepsItsCallsAndShowsWhenItExpires() {
        jakarta.json.JsonObject call = json("{\"type\":\"function_call\",\"call_id\":\"c1\",\"name\":\"http_get\","
                + "\"arguments\":\"{}\"}");
        ChatAuthPrompt prompt = ChatAuthPrompt.of("github", java.util.List.of(call), "turn-1", 1_000);
        ChatAuthPrompt back = ChatAuthPrompt.fromJson(prompt.toJson());
        assertEquals(prompt, back);
        assertEquals("http_get", back.toolName());
        jakarta.json.JsonObject shown = back.shown("t-1", java.time.Duration.ofSeconds(300));
        assertEquals("1970-01-01T00:05:01Z", shown.getString("expires_at"));
        assertEquals("github", shown.getString("credential"));
        assertEquals(back.requestId(), back.renewed(9_000).requestId());
        assertEquals(9_000, back.renewed(9_000).createdAt(), "asked again: a fresh TTL");
    }

    @Test
    void alwaysAddsATool() {
        assertEquals(Set.of(), ChatApprovals.autoApproved(null));
        String one = ChatApprovals.withTool(null, "b");
        assertEquals(Set.of("a", "b"), ChatApprovals.autoApproved(ChatApprovals.withTool(one, "a")));
        assertEquals(Set.of("b"), ChatApprovals.autoApproved(ChatApprovals.withTool(one, "b")));
    }
}
