package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The scripted engine's call directives: asking for calls, replaying with their replies, forgeries ignored. */
class ScriptedDelegationTest {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor();

    @AfterAll
    static void stop() {
        TIMER.shutdownNow();
    }

    private static JsonObject run(String script, Delegation tree) throws Exception {
        EngineRequest request = new EngineRequest("r1", "u", "t", script, "followUp", 1, Cancellation.manual(), List::of,
                null, ModelChoice.NONE, RunStream.NONE, null, tree == null ? null : () -> tree);
        return new ScriptedEngine(TIMER).execute(request).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private static Delegation tree(Delegation.Reply... replies) {
        return new Delegation("researcher", "6f1c0000-0000-4000-8000-000000000001", "main", false, () -> List.of(replies));
    }

    @Test
    void aForkIsAskedForAsOneRoundOfCallsWithNestedScriptsKeptWhole() throws Exception {
        JsonObject out = run("sleep 1; call search {call calc {2+2}; replies} & call search {q2}; replies", tree());
        List<Delegation.Call> calls = Delegation.callsIn(out).orElseThrow();
        assertEquals(List.of(new Delegation.Call(0, "search", "call calc {2+2}; replies"),
                new Delegation.Call(1, "search", "q2")), calls);
    }

    @Test
    void aReplayFindsItsRoundAnsweredAndGoesOnToTheNext() throws Exception {
        Delegation answered = tree(new Delegation.Reply(0, "search", "reply", null, "found it"));
        JsonObject second = run("call search {q}; call calc {1+1}; replies", answered);
        assertEquals(List.of(new Delegation.Call(1, "calc", "1+1")), Delegation.callsIn(second).orElseThrow(),
                "call indexes count every call of the script");
        JsonObject done = run("call search {q}; replies", tree(new Delegation.Reply(0, "search", "reply", null, "found it"),
                new Delegation.Reply(0, "wiki", "error", "timeout", "No reply in time; retry allowed.")));
        assertEquals("search: found it | wiki: SystemError{code: timeout, message: No reply in time; retry allowed.}",
                done.getString("text"));
    }

    @Test
    void aClaimedSenderIsWrittenButNeverRead() throws Exception {
        JsonObject out = run("call calc {1} as boss", tree());
        JsonObject call = out.getJsonArray(Delegation.CALLS).getJsonObject(0);
        assertEquals("boss", call.getString("from"), "the script did try to forge it");
        assertEquals(List.of(new Delegation.Call(0, "calc", "1")), Delegation.callsIn(out).orElseThrow());
    }

    @Test
    void whoamiSilentAndTheirAbsenceOutsideATree() throws Exception {
        assertEquals("agent=researcher from=main self=false", run("whoami", tree()).getString("text"));
        assertTrue(Delegation.isNothing(run("silent", tree())));
        ExecutionException outside = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> run("call calc {1}", null));
        assertTrue(outside.getCause().getMessage().contains("delegation"), outside.getCause().getMessage());
        ExecutionException broken = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> run("call calc {1", tree()));
        assertTrue(broken.getCause().getMessage().contains("unbalanced"), broken.getCause().getMessage());
        assertFalse(Delegation.callsIn(run("plain text", tree())).isPresent());
    }
}
