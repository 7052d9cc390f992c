package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A delegated run's call tree as {@code GET /v1/runs/{id}/tree} gives it, and the runs behind its paths. */
final class CallTrees {

    private CallTrees() {
    }

    static JsonObject of(Api api, String runId) {
        Api.Reply r = api.get("/v1/runs/" + runId + "/tree");
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    static List<JsonObject> nodes(JsonObject tree) {
        return tree.getJsonArray("nodes").getValuesAs(JsonObject.class);
    }

    /** The node whose path ends with {@code path} (such as {@code .main.calc}). */
    static JsonObject node(JsonObject tree, String path) {
        return nodes(tree).stream().filter(n -> n.getString("path").endsWith(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no path ending " + path + " in " + tree));
    }

    /** Each node's path and its opaque path id. */
    static Map<String, String> pathIds(JsonObject tree) {
        return nodes(tree).stream().collect(Collectors.toMap(n -> n.getString("path"), n -> n.getString("path_id")));
    }

    /** The run behind a path (clients never see it: read from {@code db}'s path registry). */
    static String runOf(String db, String pathId) {
        try (Connection c = TestDatabase.connect(db);
                PreparedStatement s = c.prepareStatement("SELECT run_id FROM path_registry WHERE uuid = ?")) {
            s.setString(1, pathId);
            try (ResultSet rs = s.executeQuery()) {
                assertTrue(rs.next(), "no path " + pathId);
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
