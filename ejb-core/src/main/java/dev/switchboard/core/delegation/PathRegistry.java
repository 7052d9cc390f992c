package dev.switchboard.core.delegation;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The path registry's rows ({@code path_registry}): every path of a delegation tree, minted once
 * with its UUID, its root's row counting the tree's hops. Read and changed in the caller's
 * transaction; a change of a tree starts by locking its root ({@link #lockRoot}).
 */
@Store("path_registry")
@ApplicationScoped
public class PathRegistry {

    static final String PATH_COLUMNS = "uuid, session_root, root_uuid, root_run_id, user_key, thread_key,"
            + " segments, depth, parent_uuid, agent, caller, thread_id, run_id, status, hops, result_text, created_at,"
            + " closed_at";
    private static final String INSERT_PATH = "INSERT INTO path_registry (" + PATH_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    /** The path a run handles: a tree's entry or a call's path (a root's own run handles none). */
    private static final String OF_RUN = " FROM path_registry WHERE run_id = ? AND depth > 0";
    private static final String HANDLER_OF_RUN = "SELECT " + PATH_COLUMNS + OF_RUN;
    private static final String HANDLER_WITH_STATE = "SELECT " + PATH_COLUMNS + ", state" + OF_RUN;
    private static final String TREE = "SELECT " + PATH_COLUMNS
            + " FROM path_registry WHERE root_run_id = ? ORDER BY depth, created_at, uuid";
    private static final String LOCK_ROOT = "SELECT " + PATH_COLUMNS + " FROM path_registry WHERE uuid = ? FOR UPDATE";
    private static final String PATH = "SELECT " + PATH_COLUMNS + " FROM path_registry WHERE uuid = ?";
    private static final String LIVE_CHILDREN = "SELECT " + PATH_COLUMNS
            + " FROM path_registry WHERE parent_uuid = ? AND status = 'live'";
    private static final String CLOSE_PATH = "UPDATE path_registry SET status = ?, result_text = ?, closed_at = ?"
            + " WHERE uuid = ? AND status = 'live'";
    private static final String KEEP_STATE = "UPDATE path_registry SET state = ? WHERE uuid = ?";
    private static final String ADD_HOPS = "UPDATE path_registry SET hops = hops + ? WHERE uuid = ?";
    private static final String CLOSE_ROOT = "UPDATE path_registry SET status = ?, closed_at = ?"
            + " WHERE root_run_id = ? AND depth < 2 AND status = 'live'";
    private static final String LIVE_RUNS = "SELECT uuid, run_id FROM path_registry WHERE status = 'live'"
            + " AND uuid > ? ORDER BY uuid FETCH FIRST ? ROWS ONLY";

    /** A path as the registry holds it; {@code segments} root first. */
    public record PathRow(String uuid, String sessionRoot, String rootUuid, String rootRunId, String userKey,
            String threadKey, List<String> segments, int depth, String parentUuid, String agent, String caller,
            long threadId, String runId, String status, int hops, String resultText, long createdAt, Long closedAt) {

        public boolean isLive() {
            return "live".equals(status);
        }

        public String readable() {
            return PathNames.readable(segments);
        }
    }

    /** A live path whose run ended, and the status a root closes with: completed, cancelled or failed as its run ended. */
    public record Orphan(String uuid, String ended) {
    }

    /** A live path and the run that handles it. */
    public record LiveRun(String uuid, String runId) {
    }

    @Inject
    Statements statements;

    public PathRegistry() {
    }

    /** Built outside the container (the in-process tests). */
    public PathRegistry(Statements statements) {
        this.statements = statements;
    }

    // --- reads ---

    /** The path run {@code runId} handles (a tree's entry or a call's path); none for a run that never delegated. */
    public Optional<PathRow> handlerOf(String runId) {
        return first(statements.query(HANDLER_OF_RUN, s -> s.setString(1, runId), PathRegistry::pathRow,
                "reading the path of run " + runId));
    }

    public Optional<PathRow> path(String uuid) {
        return first(statements.query(PATH, s -> s.setString(1, uuid), PathRegistry::pathRow, "reading path " + uuid));
    }

    /**
     * Locks the tree's root row, which every change of a tree does first (after, at most, the lane
     * of the run that acts), before the caller's lane: one order everywhere, so two transactions of
     * a tree never wait for each other in a circle.
     */
    public PathRow lockRoot(String rootUuid) {
        return first(statements.query(LOCK_ROOT, s -> s.setString(1, rootUuid), PathRegistry::pathRow,
                "locking tree " + rootUuid)).orElseThrow(() -> new IllegalStateException("no tree root " + rootUuid));
    }

    public List<PathRow> liveChildren(String uuid) {
        return statements.query(LIVE_CHILDREN, s -> s.setString(1, uuid), PathRegistry::pathRow,
                "reading the live children of " + uuid);
    }

    /** Up to {@code limit} live paths with a run, by UUID after {@code afterUuid}; read without a lock. */
    public List<LiveRun> liveRuns(String afterUuid, int limit) {
        return statements.query(LIVE_RUNS, s -> {
            s.setString(1, afterUuid);
            s.setInt(2, limit);
        }, rs -> new LiveRun(rs.getString(1), rs.getString(2)), "reading the live paths");
    }

    // --- writes ---

    public void insert(PathRow p) {
        statements.updateOne(INSERT_PATH, s -> {
            s.setString(1, p.uuid());
            s.setString(2, p.sessionRoot());
            s.setString(3, p.rootUuid());
            s.setString(4, p.rootRunId());
            s.setString(5, p.userKey());
            s.setString(6, p.threadKey());
            s.setString(7, segmentsJson(p.segments()));
            s.setInt(8, p.depth());
            s.setString(9, p.parentUuid());
            s.setString(10, p.agent());
            s.setString(11, p.caller());
            s.setLong(12, p.threadId());
            s.setString(13, p.runId());
            s.setString(14, p.status());
            s.setInt(15, p.hops());
            s.setString(16, p.resultText());
            s.setLong(17, p.createdAt());
            Statements.setLong(s, 18, p.closedAt());
        }, "registering path " + p.uuid());
    }

    /** Keeps what the execution of the path's run kept ({@code state}; null: nothing) for its next one. */
    public void keepState(String uuid, JsonObject state) {
        statements.updateOne(KEEP_STATE, s -> {
            s.setString(1, state == null ? null : state.toString());
            s.setString(2, uuid);
        }, "keeping the state of path " + uuid);
    }

    /** Counts {@code hops} more on the tree's {@code root}. */
    public void addHops(PathRow root, int hops) {
        statements.update(ADD_HOPS, s -> {
            s.setInt(1, hops);
            s.setString(2, root.uuid());
        }, "counting the hops of tree " + root.sessionRoot());
    }

    /** Closes {@code path} as {@code status}, keeping {@code resultText}, if it is still live. */
    public void close(PathRow path, String status, String resultText, long now) {
        statements.update(CLOSE_PATH, s -> {
            s.setString(1, status);
            s.setString(2, resultText);
            s.setLong(3, now);
            s.setString(4, path.uuid());
        }, "closing path " + path.uuid());
    }

    /** Closes the root and entry path of the tree of unit of work {@code runId} as {@code status}, if still live. */
    public void closeRoot(String runId, String status, long now) {
        statements.update(CLOSE_ROOT, s -> {
            s.setString(1, status);
            s.setLong(2, now);
            s.setString(3, runId);
        }, "closing the tree of run " + runId);
    }

    // --- rows ---

    static PathRow pathRow(ResultSet rs) throws SQLException {
        return new PathRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), segmentsOf(rs.getString(7)), rs.getInt(8), rs.getString(9), rs.getString(10),
                rs.getString(11), rs.getLong(12), rs.getString(13), rs.getString(14), rs.getInt(15), rs.getString(16),
                rs.getLong(17), Statements.getLong(rs, 18));
    }

    static String segmentsJson(List<String> segments) {
        JsonArrayBuilder array = Jsons.createArrayBuilder();
        segments.forEach(array::add);
        return array.build().toString();
    }

    static List<String> segmentsOf(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            return reader.readArray().getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
        }
    }

    private static <T> Optional<T> first(List<T> list) {
        return list.isEmpty() ? Optional.empty() : Optional.of(list.get(0));
    }

    /** Retention: deletes the paths of the trees these runs were the roots of (deleted with them). */
    public int deleteTreesOf(List<String> rootRunIds) {
        return statements.updateIn("DELETE FROM path_registry WHERE root_run_id IN (%s)", rootRunIds,
                "deleting aged runs' call trees");
    }

    /** A path and what its run's last execution kept (null: nothing). */
    record Handler(PathRow path, String state) {
    }

    /** The path run {@code runId} handles (none for a root's run) with the state its last execution kept. */
    Optional<Handler> handlerWithState(String runId) {
        return statements.query(HANDLER_WITH_STATE, s -> s.setString(1, runId),
                rs -> new Handler(pathRow(rs), rs.getString(19)), "reading the path of run " + runId).stream().findFirst();
    }

    /** Every path of the tree of unit of work {@code rootRunId}, root first. */
    List<PathRow> tree(String rootRunId) {
        return statements.query(TREE, s -> s.setString(1, rootRunId), PathRegistry::pathRow, "reading a tree");
    }
}
