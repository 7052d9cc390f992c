package dev.switchboard.core.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.engine.Delegation;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The routing rules of spec §3 and the target checks of §10.1, one test per checklist line. */
class DelegationRulesTest {

    private static final List<String> AT_RESEARCHER = List.of("sess-0123456789abcdef", "researcher");

    private static Agent agent(String name, List<String> peers, String... capabilities) {
        return new Agent(name, null, null, peers, List.of(capabilities), 0);
    }

    private static final Agents AGENTS = new Agents(List.of(
            agent("researcher", null),
            agent("search", List.of("calc"), "lookup"),
            agent("wiki", List.of(), "lookup"),
            agent("calc", List.of()),
            agent("logger", List.of()),
            agent("secret", null),
            agent("narrow", List.of("logger"))));

    private static DelegationRules rules() {
        return new DelegationRules(AGENTS, new DelegationRules.Limits(16, 50));
    }

    private static List<Delegation.Call> calls(String... targets) {
        return java.util.stream.IntStream.range(0, targets.length)
                .mapToObj(i -> new Delegation.Call(i, targets[i], "input " + i)).toList();
    }

    @Test
    void absentPeersReachAnyListenerEmptyPeersNoneAndAListExactlyItsNames() {
        assertTrue(rules().route("researcher", AT_RESEARCHER, calls("secret"), 0, Set.of()).slots().get(0).dispatched());
        DelegationRules.Slot none = rules().route("calc", AT_RESEARCHER, calls("logger"), 0, Set.of()).slots().get(0);
        assertFalse(none.dispatched());
        assertEquals("routing", none.code());
        List<DelegationRules.Slot> listed = rules().route("narrow", AT_RESEARCHER, calls("logger", "secret"), 0, Set.of())
                .slots();
        assertTrue(listed.get(0).dispatched());
        assertEquals("logger", listed.get(0).listener());
        assertFalse(listed.get(1).dispatched(), "a listener not on the list is never reached");
        assertEquals("routing", listed.get(1).code());
    }

    @Test
    void anUnknownAndAForbiddenTargetGetTheSameGenericText() {
        DelegationRules.Slot unknown = rules().route("researcher", AT_RESEARCHER, calls("nobody"), 0, Set.of()).slots().get(0);
        DelegationRules.Slot forbidden = rules().route("narrow", AT_RESEARCHER, calls("secret"), 0, Set.of()).slots().get(0);
        assertEquals(unknown.code(), forbidden.code());
        assertEquals(unknown.message(), forbidden.message());
        assertEquals(DelegationRules.UNDELIVERABLE, unknown.message());
        assertFalse(unknown.message().contains("nobody") || forbidden.message().contains("secret"),
                "the text names no target");
    }

    @Test
    void aForkOfTwoCallsToOneListenerGetsDistinctSegments() {
        List<DelegationRules.Slot> slots = rules().route("researcher", AT_RESEARCHER, calls("search", "search"), 0, Set.of())
                .slots();
        assertEquals(List.of("search", "search#2"), slots.stream().map(DelegationRules.Slot::segment).toList());
        assertEquals(List.of("search", "search"), slots.stream().map(DelegationRules.Slot::listener).toList());
    }

    @Test
    void aSegmentTakenByALiveSiblingGetsTheNextOrdinalAndAClosedOneIsReused() {
        assertEquals("search#3", rules().route("researcher", AT_RESEARCHER, calls("search"), 0, Set.of("search", "search#2"))
                .slots().get(0).segment());
        assertEquals("search", rules().route("researcher", AT_RESEARCHER, calls("search"), 0, Set.of("search#2"))
                .slots().get(0).segment(), "a closed sibling's segment is free again");
    }

    @Test
    void aCapabilityServedByTwoAgentsIsABroadcastToBoth() {
        DelegationRules.Routing routing = rules().route("researcher", AT_RESEARCHER, calls("lookup"), 0, Set.of());
        assertEquals(List.of("search", "wiki"), routing.slots().stream().map(DelegationRules.Slot::listener).toList());
        assertTrue(routing.slots().stream().allMatch(s -> s.call() == 0), "both answer the one call");
        assertEquals(2, routing.hops(), "one delivery per listener");
    }

    @Test
    void aPathLongerThanTheLimitIsRefusedWithADepthError() {
        DelegationRules shallow = new DelegationRules(AGENTS, new DelegationRules.Limits(2, 50));
        assertTrue(shallow.route("researcher", List.of("sess-x", "researcher"), calls("calc"), 0, Set.of()).slots().get(0)
                .dispatched(), "a path of two segments below the root is within a limit of 2");
        DelegationRules.Slot deep = shallow.route("researcher", List.of("sess-x", "researcher", "researcher"), calls("calc"),
                0, Set.of()).slots().get(0);
        assertFalse(deep.dispatched());
        assertEquals("depth", deep.code());
        assertEquals(DelegationRules.TOO_DEEP, deep.message());
    }

    @Test
    void hopsBeyondTheLimitAreRefusedWithADepthError() {
        DelegationRules.Routing routing = rules().route("researcher", AT_RESEARCHER, calls("calc", "calc", "lookup"), 49,
                Set.of());
        assertTrue(routing.slots().get(0).dispatched(), "the 50th hop is allowed");
        assertEquals("depth", routing.slots().get(1).code());
        assertEquals(DelegationRules.TOO_MANY_HOPS, routing.slots().get(1).message());
        assertEquals("depth", routing.slots().get(2).code(), "a broadcast needs a hop per listener");
        assertEquals(50, routing.hops());
    }

    @Test
    void aSelfCallIsAnOrdinaryDelegation() {
        DelegationRules.Slot self = rules().route("researcher", AT_RESEARCHER, calls("researcher"), 0, Set.of()).slots().get(0);
        assertTrue(self.dispatched());
        assertEquals("researcher", self.segment());
    }

    @Test
    void theEntryHandlerWithoutAnAgentOfItsNameCallsAnyone() {
        assertTrue(rules().route("main", List.of("sess-x", "main"), calls("secret"), 0, Set.of()).slots().get(0).dispatched());
    }
}
