package dev.switchboard.core.thread;

import dev.switchboard.core.engine.WorkspaceSettings;
import dev.switchboard.core.engine.WorkspaceTurn;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.lane.RunReads;
import dev.switchboard.core.lane.RunRow;
import dev.switchboard.core.workspace.TurnStatus;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Threads' workspaces as clients and conversations see them: turning one on for a thread, reading
 * a thread's line, reading a run's turn record ({@code turn.json} and its {@code changes.diff}),
 * where the line was before a turn (a conversation's checkpoint), and moving it with undo and redo.
 */
@Stateless
@jakarta.ejb.LocalBean
@jakarta.ejb.Local(WorkspaceCommits.class)
public class ThreadWorkspaces implements WorkspaceCommits {

    /** Beyond this, a record's diff is cut (the file keeps all of it). */
    static final int MAX_DIFF_CHARS = 1024 * 1024;

    /** How an output that worked in the workspace holds its change (as our JSON writes it: no blank). */
    private static final String WORKSPACE_MARK = "\"" + WorkspaceTurn.OUTPUT_KEY + "\":{";



    @Inject
    ThreadRepository repository;

    @Inject
    Lanes lanes;

    @Inject
    RunReads runs;

    @Inject
    ThreadDirectory threads;

    @Inject
    WorkspaceSettings settings;

    public ThreadWorkspaces() {
    }

    /**
     * Built outside the container (the in-process tests) with its store alone: what needs the
     * thread directory or the workspace settings needs the container.
     */
    public ThreadWorkspaces(ThreadRepository repository, Lanes lanes, RunReads runs) {
        this.repository = repository;
        this.lanes = lanes;
        this.runs = runs;
    }


    /** The thread's workspace; a thread that does not exist (yet) has none — unless every thread has one. */
    public WorkspaceView view(String userKey, String threadKey) {
        Optional<String> head = repository.workspaceHead(userKey, threadKey);
        return new WorkspaceView(threadKey, head.isPresent() || settings.allThreads(), head.orElse(null));
    }

    /** Gives the thread a workspace (creating the thread when new); its runs claimed from now on work in it. */
    public WorkspaceView enable(String userKey, String threadKey) {
        long threadId = threads.idOf(userKey, threadKey);
        // The update locks the thread's row, so a claim reads the line as it was or as it is now.
        repository.enableWorkspace(threadId);
        return view(userKey, threadKey);
    }

    /**
     * The record of the user's run {@code runId} in its thread's workspace: its {@code turn.json} with the
     * status the run has now, and the change set as {@code changes_diff}; empty when the user has no such
     * run or the run never worked in a workspace.
     */
    public Optional<JsonObject> record(String userKey, String runId) {
        // A run is its thread's user's: whose the thread is says whose the run is.
        Optional<RunRow> run = runs.run(runId).filter(r -> repository.keyOf(r.threadId())
                .map(k -> k.userKey().equals(userKey)).orElse(false));
        if (run.isEmpty()) {
            return Optional.empty();
        }
        Path dir = settings.workspaces().turnDir(run.get().threadId(), runId);
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
                .add("status", TurnStatus.of(run.get().state().wire(), run.get().errorCode(), turn.getString("status", "")));
        if (diff == null) {
            record.addNull("changes_diff");
        } else {
            record.add("changes_diff", diff.length() > MAX_DIFF_CHARS ? diff.substring(0, MAX_DIFF_CHARS) : diff)
                    .add("changes_diff_truncated", diff.length() > MAX_DIFF_CHARS);
        }
        return Optional.of(record.build());
    }

    /** Where the thread's workspace line is (its lock held): the head, {@code ""} at its start; empty without a workspace. */
    public Optional<String> head(long threadId) {
        return repository.workspaceHead(threadId);
    }

    /**
     * Where the thread's line was before a turn (just ended, its lock held) whose succeeded runs
     * answered {@code turnOutputs}, in lane order: the base its first change set started from, or —
     * when the turn kept none — where the line is now.
     */
    public Optional<String> before(long threadId, List<String> turnOutputs) {
        for (String output : turnOutputs) {
            if (output != null && output.contains(WORKSPACE_MARK)
                    && parse(output).get(WorkspaceTurn.OUTPUT_KEY) instanceof JsonObject change && change.containsKey("base")) {
                return Optional.of(change.getString("base"));
            }
        }
        return head(threadId);
    }

    /** The head and every commit and base a run of the thread recorded (its output's {@code workspace}). */
    @Override
    public java.util.Set<String> named(long threadId) {
        java.util.Set<String> named = new java.util.HashSet<>();
        head(threadId).filter(h -> !h.isEmpty()).ifPresent(named::add);
        for (String output : runs.outputsLike(threadId, "%" + WORKSPACE_MARK + "%")) {
            if (parse(output).get(WorkspaceTurn.OUTPUT_KEY) instanceof JsonObject change) {
                for (String key : List.of("commit", "base")) {
                    if (change.get(key) instanceof jakarta.json.JsonString commit && !commit.getString().isEmpty()) {
                        named.add(commit.getString());
                    }
                }
            }
        }
        return named;
    }

    /** The threads that have a workspace and whose lane nobody holds (no turn is writing to it), by id. */
    public List<Long> withIdleWorkspace() {
        return lanes.unleased(repository.withWorkspace());
    }

    /** Moves the thread's line (its lock held) to {@code head}: a conversation went back or forth to it. */
    public void move(long threadId, String head) {
        moveLine(threadId, head);
        settings.workspaces().mirror(threadId, head);
    }

    /** Moves the thread's line (its lane locked) to {@code head}, in the caller's transaction: a run's output moved it. */
    public void moveLine(long threadId, String head) {
        repository.moveWorkspace(threadId, head);
    }

    private static JsonObject parse(String json) {
        return Jsons.readObject(json);
    }


    /**
     * A page of the threads with a workspace made before {@code cutoff}, ids above {@code afterId},
     * and those of them with no run since {@code cutoff} (whether their lane is held, {@link #resetIdle}
     * asks under its lock).
     */
    public IdlePage idle(long cutoff, long afterId, int limit) {
        List<Long> page = repository.workspacesMadeBefore(cutoff, afterId, limit);
        Set<Long> busy = runs.busySince(page, cutoff);
        return new IdlePage(page.stream().filter(id -> !busy.contains(id)).toList(),
                page.isEmpty() ? afterId : page.get(page.size() - 1), page.size() == limit);
    }

    /** The idle threads of a page, in id order; the last id the page looked at; whether it was full (more may follow). */
    public record IdlePage(List<Long> idle, long last, boolean full) {
    }

    /**
     * Moves the thread's workspace line back to its start when it is still idle (its lane locked
     * until the caller's transaction ends, so no run is added or claimed meanwhile); false when a run
     * came since {@code cutoff} or its lane is held.
     */
    public boolean resetIdle(long threadId, long cutoff) {
        Lane lane = lanes.lock(threadId);
        return lane != null && lane.leaseOwner() == null && runs.busySince(List.of(threadId), cutoff).isEmpty()
                && repository.resetWorkspace(threadId);
    }
}
