package dev.switchboard.core.turn;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.engine.WorkspaceSettings;
import dev.switchboard.core.engine.WorkspaceTurn;
import dev.switchboard.core.execution.ExecutionPreparation;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.execution.ThreadChoice;
import dev.switchboard.core.history.ResponseRecord;
import dev.switchboard.core.history.ResponseRecords;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.lane.RunEnding;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.workspace.LineMove;
import dev.switchboard.core.workspace.Workspaces;
import dev.switchboard.persistence.run.RunKind;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A turn works in a worktree of its thread's workspace line (when the thread has one, or every
 * thread has): its engine runs inside {@link WorkspaceTurn}, and its end moves the line to the
 * commit it made — unless the line moved meanwhile, which fails the turn ({@link #CONFLICT}) and
 * keeps nothing. Delegated calls and compactions run without a worktree.
 */
@ApplicationScoped
public class WorkspaceRuns implements ExecutionPreparation, RunEnding {

    /** The error of a turn whose workspace line moved while it worked. */
    public static final String CONFLICT = "workspace_conflict: the thread's workspace line moved during the turn;"
            + " its changes were not kept";
    /** How an output carrying a workspace change starts its member (the engine writes it so): a cheap test. */
    private static final String MEMBER = "\"" + WorkspaceTurn.OUTPUT_KEY + "\":{";

    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    WorkspaceSettings workspace;

    @Inject
    ResponseRecords responses;

    @Inject
    ThreadWorkspaces workspaces;

    @Inject
    InstanceClock clock;

    /** Workspace tools' commands and worktrees' check-outs and commits: no lane work waits behind them. */
    private ExecutorService io;

    @PostConstruct
    void start() {
        workspace.workspaces(); // a mistaken workspace setting stops the start here
        io = Executors.newCachedThreadPool(threadFactory);
    }

    @PreDestroy
    void stop() {
        io.shutdown();
    }

    @Override
    public int order() {
        return 400;
    }

    @Override
    public Prepared prepare(Claim claim, Prepared prepared) {
        String head = ThreadChoice.of(claim).workspace();
        RunContent run = RunContent.of(claim);
        if (head == null && !workspace.allThreads() || run.kind() == RunKind.DELEGATED
                || run.kind() == RunKind.COMPACTION) {
            return prepared;
        }
        Optional<ResponseRecord> response = run.kind() == RunKind.RESPONSE
                ? responses.ofRun(claim.runId()) : Optional.empty();
        return prepared.withEngine(new WorkspaceTurn(prepared.engine(), workspace.workspaces(), workspace.tools(), io,
                new WorkspaceTurn.Turn(claim.threadId(), head == null ? Workspaces.START : head, claim.runId(),
                        claim.attempt(), run.threadKey(), run.turnId() == null ? claim.runId() : run.turnId(),
                        response.map(ResponseRecord::responseId).orElse(claim.runId()),
                        response.map(ResponseRecord::previousResponseId).orElse(null),
                        run.inputText()),
                clock.clock()));
    }

    @Override
    public Review review(Ending ending) {
        String output = ending.outputJson();
        if (output == null || !output.contains(MEMBER)) {
            return Review.PROCEED;
        }
        JsonObject parsed = Jsons.readObjectOrNull(output);
        LineMove move = parsed == null ? LineMove.NONE : lineMove(ending.lane(), parsed);
        if (move.conflict()) {
            return Review.fail(null, CONFLICT);
        }
        if (!move.moves()) {
            return Review.PROCEED;
        }
        return Review.keep(lane -> {
            workspaces.moveLine(lane.threadId(), move.to());
            return ThreadChoice.withWorkspace(lane, move.to());
        });
    }

    @Override
    public LaneEffects ended(Ended ended) {
        return LaneEffects.NONE;
    }

    /** What the execution's workspace output does to the thread's line ({@link LineMove}). */
    private static LineMove lineMove(Lane lane, JsonObject output) {
        if (!(output.get(WorkspaceTurn.OUTPUT_KEY) instanceof JsonObject change)) {
            return LineMove.NONE;
        }
        return LineMove.of(ThreadChoice.of(lane).workspace(), change.getString("base", null),
                change.get("commit") instanceof JsonString commit ? commit.getString() : null);
    }
}
