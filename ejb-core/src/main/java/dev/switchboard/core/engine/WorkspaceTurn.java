package dev.switchboard.core.engine;

import dev.switchboard.core.engine.tool.ToolBox;
import dev.switchboard.core.engine.tool.WorkspaceTools;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.workspace.ChangeSet;
import dev.switchboard.core.workspace.Workspaces;
import dev.switchboard.core.workspace.Worktree;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One execution of a run whose thread has a workspace: the engine works in a fresh worktree at the
 * thread's head, with the workspace tools; when it answers, what it changed becomes a commit on top
 * of the head and the run's output says so ({@code workspace}: base, commit, files) — the
 * transaction that records the run moves the thread's line to that commit. When it fails, is
 * cancelled or interrupted, nothing of the worktree is kept. Either way the worktree is removed
 * and the turn's record ({@code turn.json}, and {@code changes.diff} when it changed files) is
 * written under the thread's {@code turns/<run>/}.
 */
public final class WorkspaceTurn implements AgentEngine {

    /** The output member that carries a turn's change set to the transaction that records the run. */
    public static final String OUTPUT_KEY = "workspace";
    static final String TRAILER = "Switchboard-Response: ";

    private static final Logger LOG = Logger.getLogger(WorkspaceTurn.class.getName());

    /**
     * The turn this execution belongs to.
     *
     * @param head the thread's line when the run was claimed ({@link Workspaces#START} at its start)
     * @param sessionId the thread's key
     * @param turnId the turn (the run itself when it belongs to none)
     * @param responseId the response the run answers (the run's id unless it is a {@code /v1/responses} call)
     * @param previousResponseId the client's previous response for a {@code /v1/responses} call, else null
     *        (then the turn that made the head's commit)
     */
    public record Turn(long threadId, String head, String runId, int attempt, String sessionId, String turnId,
            String responseId, String previousResponseId, String input) {
    }

    private final AgentEngine engine;
    private final Workspaces workspaces;
    private final WorkspaceTools.Settings tools;
    private final Executor io;
    private final Turn turn;
    private final Clock clock;

    public WorkspaceTurn(AgentEngine engine, Workspaces workspaces, WorkspaceTools.Settings tools, Executor io,
            Turn turn, Clock clock) {
        this.engine = engine;
        this.workspaces = workspaces;
        this.tools = tools;
        this.io = io;
        this.turn = turn;
        this.clock = clock;
    }

    @Override
    public String name() {
        return engine.name();
    }

    /** Opens the worktree on the workspace executor (a whole checkout may take a while), then lets the engine work in it. */
    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        Instant started = clock.instant();
        return CompletableFuture.supplyAsync(this::open, io).thenCompose(worktree -> work(request, worktree, started));
    }

    private Worktree open() {
        try {
            return workspaces.open(turn.threadId(), turn.head(), turn.runId() + "." + turn.attempt());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The workspace of thread " + turn.threadId() + " could not be prepared", e);
            throw new EngineFailure("workspace unavailable: " + e.getMessage());
        }
    }

    private CompletionStage<JsonObject> work(EngineRequest request, Worktree worktree, Instant started) {
        String previous = turn.previousResponseId() != null ? turn.previousResponseId() : worktree.headMessageTrailer(TRAILER);
        CompletionStage<JsonObject> executed;
        try {
            executed = engine.execute(request.withWorkspace(new ToolBox(WorkspaceTools.of(worktree, tools, io))));
        } catch (RuntimeException e) {
            executed = CompletableFuture.failedFuture(e);
        }
        return executed.handleAsync((output, error) -> ended(request, worktree, started, previous, output, error), io);
    }

    private JsonObject ended(EngineRequest request, Worktree worktree, Instant started, String previous,
            JsonObject output, Throwable error) {
        try (worktree) {
            worktree.stopCommands(); // what the worktree holds from here on is what the turn left
            if (error != null || output == null) {
                String status = request.cancelled() ? "cancelled" : "failed";
                record(started, previous, status, worktree.head(), null);
                throw error instanceof CompletionException c ? c : new CompletionException(
                        error != null ? error : new EngineFailure("engine " + name() + " returned no output"));
            }
            ChangeSet changes;
            try {
                changes = worktree.changes(message(), clock.instant());
            } catch (RuntimeException e) { // the files could not be read: the turn keeps nothing
                record(started, previous, "failed", worktree.head(), null);
                throw new CompletionException(new EngineFailure("workspace: " + e.getMessage()));
            }
            record(started, previous, "completed", worktree.head(), changes);
            return Jsons.createObjectBuilder(output).add(OUTPUT_KEY, summary(changes)).build();
        }
    }

    /** The commit message: the turn, the first line of what it was asked, and the response it answers. */
    private String message() {
        String first = turn.input() == null ? "" : turn.input().strip().lines().findFirst().orElse("");
        if (first.length() > 72) {
            first = first.substring(0, 71) + "…";
        }
        return "Turn " + turn.turnId() + (first.isEmpty() ? "" : ": " + first) + "\n\n" + TRAILER + turn.responseId()
                + "\nSwitchboard-Run: " + turn.runId() + "\n";
    }

    /** What the run's output says of its change set (the ledger moves the line from {@code base} to {@code commit}). */
    public static JsonObject summary(ChangeSet changes) {
        JsonArrayBuilder files = Jsons.createArrayBuilder();
        changes.files().forEach(f -> files.add(Jsons.createObjectBuilder().add("path", f.path()).add("change", f.change())));
        return Jsons.createObjectBuilder().add("base", changes.base())
                .add("commit", changes.commit() == null ? JsonValue.NULL : Jsons.createValue(changes.commit()))
                .add("files", files).build();
    }

    /** Writes {@code turn.json} (and {@code changes.diff}); a failure to write is logged, the turn goes on. */
    private void record(Instant started, String previous, String status, String base, ChangeSet changes) {
        Path dir = workspaces.turnDir(turn.threadId(), turn.runId());
        try {
            Files.createDirectories(dir);
            if (changes != null && changes.changed()) {
                write(dir.resolve("changes.diff"), changes.diff());
            } else {
                Files.deleteIfExists(dir.resolve("changes.diff"));
            }
            JsonObjectBuilder record = Jsons.createObjectBuilder()
                    .add("session_id", turn.sessionId()).add("turn_id", turn.turnId()).add("run_id", turn.runId())
                    .add("attempt", turn.attempt()).add("response_id", turn.responseId())
                    .add("previous_response_id", previous == null ? JsonValue.NULL : Jsons.createValue(previous))
                    .add("started_at", started.toString()).add("ended_at", clock.instant().toString())
                    .add("status", status).add("base", base)
                    .add("commit", changes == null || changes.commit() == null ? JsonValue.NULL
                            : Jsons.createValue(changes.commit()));
            JsonArrayBuilder files = Jsons.createArrayBuilder();
            if (changes != null) {
                changes.files().forEach(f -> files.add(Jsons.createObjectBuilder().add("path", f.path())
                        .add("change", f.change())));
            }
            record.add("files", files);
            write(dir.resolve("turn.json"), record.build().toString() + "\n");
        } catch (IOException | UncheckedIOException e) {
            LOG.log(Level.WARNING, "Could not write the record of run " + turn.runId() + " under " + dir, e);
        }
    }

    /** Writes whole or not at all: a reader never sees half a record. */
    private static void write(Path file, String text) throws IOException {
        Path part = file.resolveSibling(file.getFileName() + ".part");
        Files.writeString(part, text, StandardCharsets.UTF_8);
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
