package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.conversation.Approvals.Need;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Tool approval rules (spec §7.2, §8.2; upstream thread_ops.rs and dispatcher.rs, §14.7, §14.9). */
class ApprovalsTest {

    private static final UUID REQUEST = UUID.randomUUID();

    private static JsonObject call(String name) {
        return Json.createObjectBuilder().add("type", "function_call").add("name", name).add("call_id", "c-" + name)
                .add("arguments", "{}").build();
    }

    private static PendingApproval pending(boolean allowAlways) {
        return new PendingApproval(REQUEST, "shell", "Runs a command in the workspace", Json.createObjectBuilder()
                .add("cmd", "ls").build(), Json.createObjectBuilder().add("cmd", "ls").build(), "c-shell", List.of(),
                allowAlways);
    }

    @Test
    void whoNeedsAPerson() {
        assertFalse(Approvals.needsApproval(Need.NEVER, false, false));
        assertTrue(Approvals.needsApproval(Need.UNLESS_AUTO_APPROVED, false, false));
        assertFalse(Approvals.needsApproval(Need.UNLESS_AUTO_APPROVED, false, true));
        assertTrue(Approvals.needsApproval(Need.ALWAYS, false, true), "always asks even when 'always' was said");
        assertFalse(Approvals.needsApproval(Need.ALWAYS, true, false), "auto-approve-all bypasses every approval");
    }

    @Test
    void aModelMessagesCallsRunUpToTheFirstThatNeedsApproval() {
        Map<String, Need> needs = Map.of("read", Need.NEVER, "write", Need.UNLESS_AUTO_APPROVED, "shell", Need.ALWAYS);
        Approvals.Preflight p = Approvals.preflight(List.of(call("read"), call("write"), call("read"), call("shell")),
                needs::get, false, Set.of("write"));
        assertEquals(List.of(call("read"), call("write"), call("read")), p.runNow());
        assertEquals(Optional.of(call("shell")), p.gated());
        assertEquals(List.of(), p.deferred());
        Approvals.Preflight q = Approvals.preflight(List.of(call("write"), call("read")), needs::get, false, Set.of());
        assertEquals(List.of(), q.runNow());
        assertEquals(Optional.of(call("write")), q.gated());
        assertEquals(List.of(call("read")), q.deferred());
        assertEquals(Optional.empty(), Approvals.preflight(List.of(call("read")), needs::get, false, Set.of()).gated());
    }

    @Test
    void anAnswerIsJudgedAgainstThePendingRequest() {
        assertEquals(new Approvals.NothingPending("No pending approval for this thread."),
                Approvals.judge(ThreadState.IDLE, pending(true), Optional.empty(), true, false));
        assertEquals(new Approvals.NothingPending(""),
                Approvals.judge(ThreadState.AWAITING_APPROVAL, null, Optional.empty(), true, false));
        assertEquals(new Approvals.Mismatch("Request ID mismatch. Use the correct request ID."),
                Approvals.judge(ThreadState.AWAITING_APPROVAL, pending(true), Optional.of(UUID.randomUUID()), true, false));
        Approvals.Verdict denied = Approvals.judge(ThreadState.AWAITING_APPROVAL, pending(true), Optional.of(REQUEST), false,
                false);
        assertEquals(new Approvals.Denied("Tool 'shell' was rejected. The agent will not execute this tool.\n\n"
                + "You can continue the conversation or try a different approach."), denied);
        assertEquals(new Approvals.Approved(pending(true), true),
                Approvals.judge(ThreadState.AWAITING_APPROVAL, pending(true), Optional.empty(), true, true));
        assertEquals(new Approvals.Approved(pending(false), false),
                Approvals.judge(ThreadState.AWAITING_APPROVAL, pending(false), Optional.of(REQUEST), true, true),
                "'always' is not kept for a tool that always asks");
    }

    @Test
    void inputWhileWaitingIsRemindedOfTheRequest() {
        assertEquals("Waiting for approval: shell — Runs a command in the workspace. Use /interrupt to cancel.",
                Approvals.reminder(pending(true)));
        PendingApproval longOne = new PendingApproval(REQUEST, "t", "x".repeat(200), Json.createObjectBuilder().build(),
                Json.createObjectBuilder().build(), "c", List.of(), true);
        assertEquals("Waiting for approval: t — " + "x".repeat(80) + ". Use /interrupt to cancel.", Approvals.reminder(longOne));
        assertEquals("Waiting for approval. Use /interrupt to cancel.", Approvals.reminder(null));
    }
}
