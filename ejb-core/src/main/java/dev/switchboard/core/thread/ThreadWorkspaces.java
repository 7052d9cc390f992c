package dev.switchboard.core.thread;

import dev.switchboard.core.engine.WorkspaceSettings;
import dev.switchboard.core.engine.WorkspaceTurn;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.workspace.Workspaces;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Threads' workspaces as clients and conversations see them: turning one on for a thread, reading
 * a thread's line, reading a run's turn record ({@code turn.json} and its {@code changes.diff}),
 * and moving the line with a conversation's undo and redo.
 */
@Stateless
public class ThreadWorkspaces {

    /** Beyond this, a record's diff is cut (the file keeps all of it). */
    static final int MAX_DIFF_CHARS = 1024 * 1024;

    private static final String READ = "SELECT workspace_head FROM threads WHERE user_key = ? AND thread_key = ?";
    private static final String ENABLE = "UPDATE threads SET workspace_head = '' WHERE id = ? AND workspace_head IS NULL";
    private static final String HEAD = "SELECT workspace_head FROM threads WHERE id = ?";
    private static final String RUN = "SELECT thread_id, state, error_code FROM runs WHERE run_id = ? AND user_key = ?";
    /** The thread's runs that changed or kept its workspace, each with its first item, oldest first. */
    private static final String WORKSPACE_RUNS = "SELECT r.output_json, (SELECT min(i.id) FROM thread_items i"
            + " WHERE i.run_id = r.run_id) FROM runs r WHERE r.thread_id = ? AND r.state = 'succeeded'"
            + " AND r.output_json LIKE '%\"" + WorkspaceTurn.OUTPUT_KEY + "\":{%' ORDER BY r.thread_seq";

    /** A thread's workspace: whether it has one, and its line's head (null at its start). */
    public record View(String threadKey, boolean enabled, String head) {

        public JsonObject toJson() {
            return Jsons.createObjectBuilder().add("thread_key", threadKey).add("enabled", enabled)
                    .add("head", head == null || head.isEmpty() ? JsonValue.NULL : Jsons.createValue(head)).build();
        }
    }

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    ThreadDirectory threads;

    @Inject
    WorkspaceSettings settings;

    @Inject
    LaneRows rows;

    private Statements statements;

    @PostConstruct
    void init() {
        statements = new Statements(dataSource);
    }

    /** The thread's workspace; a thread that does not exist (yet) has none — unless every thread has one. */
    public View view(String userKey, String threadKey) {
        Optional<String> head = statements.query(READ, s -> {
            s.setString(1, userKey);
            s.setString(2, threadKey);
        }, rs -> Optional.ofNullable(rs.getString(1)), "reading the workspace of thread " + threadKey).stream()
                .findFirst().flatMap(h -> h);
        return new View(threadKey, head.isPresent() || settings.allThreads(), head.orElse(null));
    }

    /** Gives the thread a workspace (creating the thread when new); its runs claimed from now on work in it. */
    public View enable(String userKey, String threadKey) {
        long threadId = threads.idOf(userKey, threadKey);
        rows.lock(threadId);
        statements.update(ENABLE, s -> s.setLong(1, threadId), "giving thread " + threadKey + " a workspace");
        return view(userKey, threadKey);
    }

    /**
     * The record of the user's run {@code runId} in its thread's workspace: its {@code turn.json} with the
     * status the run has now, and the change set as {@code changes_diff}; empty when the user has no such
     * run or the run never worked in a workspace.
     */
    public Optional<JsonObject> record(String userKey, String runId) {
        List<Object[]> run = statements.query(RUN, s -> {
            s.setString(1, runId);
            s.setString(2, userKey);
        }, rs -> new Object[] {rs.getLong(1), rs.getString(2), rs.getString(3)}, "reading run " + runId);
        if (run.isEmpty()) {
            return Optional.empty();
        }
        Path dir = settings.workspaces().turnDir((Long) run.get(0)[0], runId);
        JsonObject turn;
        String diff;
        try {
            turn = parse(Files.readString(dir.resolve("turn.json"), StandardCharsets.UTF_8));
            diff = Files.exists(dir.resolve("changes.diff")) ? Files.readString(dir.resolve("changes.diff")) : null;
        } catch (NoSuchFileException none) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the workspace record of run " + runId, e);
        }
        JsonObjectBuilder record = Jsons.createObjectBuilder(turn)
                .add("status", status((String) run.get(0)[1], (String) run.get(0)[2], turn.getString("status", "")));
        if (diff == null) {
            record.addNull("changes_diff");
        } else {
            record.add("changes_diff", diff.length() > MAX_DIFF_CHARS ? diff.substring(0, MAX_DIFF_CHARS) : diff)
                    .add("changes_diff_truncated", diff.length() > MAX_DIFF_CHARS);
        }
        return Optional.of(record.build());
    }

    /**
     * Moves the workspace line of the thread (its lock held) to where it was at the end of the last
     * turn inside {@code context} — the conversation after an undo, a redo or a resume: the files are
     * as they were then. Before its first workspace turn, the line is at its start.
     */
    public void follow(long threadId, ContextWindow context) {
        Optional<String> current = statements.query(HEAD, s -> s.setLong(1, threadId),
                rs -> Optional.ofNullable(rs.getString(1)), "reading the workspace of thread " + threadId)
                .stream().findFirst().flatMap(h -> h);
        if (current.isEmpty()) {
            return;
        }
        String head = Workspaces.START;
        for (Object[] run : statements.query(WORKSPACE_RUNS, s -> s.setLong(1, threadId),
                rs -> new Object[] {rs.getString(1), rs.getObject(2) == null ? null : rs.getLong(2)},
                "reading the workspace turns of thread " + threadId)) {
            if (run[1] == null || !context.contains((Long) run[1])) {
                continue;
            }
            JsonObject change = parse((String) run[0]).getJsonObject(WorkspaceTurn.OUTPUT_KEY);
            head = change.get("commit") instanceof jakarta.json.JsonString commit ? commit.getString()
                    : change.getString("base", head);
        }
        if (!head.equals(current.get())) {
            rows.moveWorkspace(threadId, head);
            settings.workspaces().mirror(threadId, head);
        }
    }

    /** The turn's status: the run's own, which a record written before the run was recorded may not know. */
    private static String status(String runState, String errorCode, String written) {
        return switch (runState) {
            case "succeeded" -> "completed";
            case "failed" -> "cancelled".equals(errorCode) || "interrupted".equals(errorCode) ? errorCode : "failed";
            case "queued", "executing" -> "running";
            default -> written;
        };
    }

    private static JsonObject parse(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
