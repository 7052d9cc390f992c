package dev.switchboard.core.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The call tree's shape (X17): opaque ids for clients, readable paths for operators only. */
class CallTreeTest {

    private static final String ROOT = "sess-0123456789abcdef";

    private static PathRegistry.PathRow path(String uuid, String parent, String run, String... segments) {
        List<String> s = List.of(segments);
        return new PathRegistry.PathRow(uuid, ROOT, "u0", "run-0", "alice", "t", s, s.size() - 1, parent,
                s.get(s.size() - 1), s.size() > 2 ? s.get(s.size() - 2) : null, 1, run, "responded", 4, "4", 1000L, 1250L);
    }

    private static final List<PathRegistry.PathRow> TREE = List.of(path("u0", null, "run-0", ROOT),
            path("u1", "u0", "run-0", ROOT, "main"), path("u2", "u1", "run-2", ROOT, "main", "calc"));
    private static final Map<String, List<CallSlots.SlotRow>> SLOTS = Map.of("run-0", List.of(
            new CallSlots.SlotRow("run-0", 0, 0, "u1", 1, "u0", "calc", "u2", "calc", "reply", null, "4", 5000L, 1000L, 1250L),
            new CallSlots.SlotRow("run-0", 1, 1, "u1", 1, "u0", "secret", null, "system", "error", "routing",
                    DelegationRules.UNDELIVERABLE, null, 1000L, 1000L)));

    @Test
    void clientsSeeOpaqueIdsOnly() {
        JsonObject tree = CallTree.of("run-0", TREE, run -> SLOTS.getOrDefault(run, List.of()), false);
        assertFalse(tree.toString().contains(ROOT), tree.toString());
        assertFalse(tree.containsKey("session_root"));
        assertTrue(tree.getJsonArray("nodes").getValuesAs(JsonObject.class).stream().noneMatch(n -> n.containsKey("path")));
    }

    @Test
    void operatorsSeeReadablePathsAndEveryNodeHasItsCallsStatusAndTimings() {
        JsonObject tree = CallTree.of("run-0", TREE, run -> SLOTS.getOrDefault(run, List.of()), true);
        assertEquals(ROOT, tree.getString("session_root"));
        List<JsonObject> nodes = tree.getJsonArray("nodes").getValuesAs(JsonObject.class);
        assertEquals(List.of(ROOT, ROOT + ".main", ROOT + ".main.calc"), nodes.stream().map(n -> n.getString("path")).toList());
        JsonObject main = nodes.get(1);
        assertEquals(2, main.getJsonArray("calls").size());
        assertEquals("routing", main.getJsonArray("calls").getJsonObject(1).getString("code"));
        assertTrue(main.getJsonArray("calls").getJsonObject(1).isNull("path_id"), "a refused call has no path");
        assertEquals(250, nodes.get(2).getInt("duration_ms"));
        assertEquals("main", nodes.get(2).getString("from"));
        assertEquals("4", nodes.get(2).getString("result"));
        assertEquals(4, tree.getInt("hops"));
    }

    @Test
    void aRunWithoutATreeSaysSo() {
        JsonObject tree = CallTree.of("run-9", List.of(), run -> List.of(), true);
        assertFalse(tree.getBoolean("delegated"));
        assertEquals(0, tree.getJsonArray("nodes").size());
    }
}
