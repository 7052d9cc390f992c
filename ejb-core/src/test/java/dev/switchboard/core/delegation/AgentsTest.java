package dev.switchboard.core.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The agents' configuration: names that paths can hold, peers absent versus empty, capabilities. */
class AgentsTest {

    @Test
    void aDottedOrHashedNameIsRejectedAtRegistration() {
        IllegalArgumentException dotted = assertThrows(IllegalArgumentException.class,
                () -> Agents.parse("[{\"name\":\"calculator.add\"}]"));
        assertTrue(dotted.getMessage().contains("calculator.add"), dotted.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Agents.parse("[{\"name\":\"search#2\"}]"));
        assertThrows(IllegalArgumentException.class,
                () -> Agents.parse("[{\"name\":\"a\",\"capabilities\":[\"look.up\"]}]"));
    }

    @Test
    void absentPeersMeanAnyAndAnEmptyListMeansNone() {
        Agents agents = Agents.parse("[{\"name\":\"open\"},{\"name\":\"closed\",\"peers\":[]},"
                + "{\"name\":\"one\",\"peers\":[\"open\"]}]");
        assertEquals(Optional.empty(), agents.byName("open").orElseThrow().peerList());
        assertTrue(agents.byName("open").orElseThrow().mayCall("anyone"));
        assertFalse(agents.byName("closed").orElseThrow().mayCall("open"));
        assertTrue(agents.byName("one").orElseThrow().mayCall("open"));
        assertFalse(agents.byName("one").orElseThrow().mayCall("Open"), "names are case-sensitive");
    }

    @Test
    void aCapabilityReachesEveryAgentServingItInNameOrderAndANameOnlyItsAgent() {
        Agents agents = Agents.parse("[{\"name\":\"wiki\",\"capabilities\":[\"lookup\"]},"
                + "{\"name\":\"search\",\"engine\":\"echo\",\"capabilities\":[\"lookup\"],\"timeout_ms\":500}]");
        assertEquals(List.of("search", "wiki"), agents.listeners("lookup").stream().map(Agent::name).toList());
        assertEquals(List.of("wiki"), agents.listeners("wiki").stream().map(Agent::name).toList());
        assertEquals(List.of(), agents.listeners("nobody"));
        assertEquals(500, agents.byName("search").orElseThrow().timeoutMs());
        assertEquals("echo", agents.byName("search").orElseThrow().engine());
    }

    @Test
    void anAgentMayCallItsPeersAndOneWithoutAListOrTheEntryEveryAgentAndCapability() {
        Agents agents = Agents.parse("[{\"name\":\"wiki\",\"capabilities\":[\"lookup\"]},"
                + "{\"name\":\"calc\",\"peers\":[]},{\"name\":\"narrow\",\"peers\":[\"wiki\",\"calc\"]}]");
        assertEquals(List.of("calc", "wiki"), agents.callableBy("narrow"));
        assertEquals(List.of(), agents.callableBy("calc"));
        assertEquals(List.of("calc", "lookup", "narrow", "wiki"), agents.callableBy("wiki"));
        assertEquals(List.of("calc", "lookup", "narrow", "wiki"), agents.callableBy("main"));
    }

    @Test
    void mistakesAreNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Agents.parse("[{\"name\":\"a\",\"peer\":[]}]"))
                .getMessage().contains("peer"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Agents.parse("[{\"name\":\"a\"},{\"name\":\"a\"}]"))
                .getMessage().contains("twice"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> Agents.parse("[{\"name\":\"a\"},{\"name\":\"b\",\"capabilities\":[\"a\"]}]")).getMessage()
                .contains("also an agent"));
        assertThrows(IllegalArgumentException.class, () -> Agents.parse("{\"name\":\"a\"}"));
        assertThrows(IllegalArgumentException.class, () -> Agents.parse("[{\"engine\":\"echo\"}]"));
        assertEquals(List.of(), Agents.parse(" ").all());
    }
}
