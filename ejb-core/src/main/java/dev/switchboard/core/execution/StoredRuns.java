package dev.switchboard.core.execution;

import dev.switchboard.core.lane.RunReads;
import dev.switchboard.core.lane.RunRow;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Runs as the classes that show them read them — a run, a lane's page, a turn's runs — through the
 * lane's reads ({@link RunReads}), with what each carries decoded ({@link RunContent}).
 */
@ApplicationScoped
public class StoredRuns {

    @Inject
    RunReads reads;

    public StoredRuns() {
    }

    /** Built outside the container (the in-process tests). */
    public StoredRuns(RunReads reads) {
        this.reads = reads;
    }

    /**
     * A run's row as the classes that show runs read it (epoch ms times, null when not yet): its
     * place, whom it is for, its input, output and end, its attempts, its turn (null without one) and what it is.
     */
    public record StoredRun(String runId, long threadId, long threadSeq, String userKey, String threadKey, String source,
            String deliveryMode, RunState state, String inputText, String inputJson, String outputJson,
            String errorMessage, String errorCode, int attempt, int crashes, long createdAt, Long startedAt,
            Long finishedAt, String turnId, RunKind kind) {

        static StoredRun of(RunRow row) {
            RunContent c = (RunContent) row.payload(); // the only payload plugged in (RunColumns)
            return new StoredRun(row.runId(), row.threadId(), row.threadSeq(), c.userKey(), c.threadKey(), c.source(),
                    c.deliveryMode(), row.state(), c.inputText(), c.inputJson(), row.outputJson(), row.errorMessage(),
                    row.errorCode(), row.attempt(), row.crashes(), row.createdAt(), row.startedAt(), row.finishedAt(),
                    c.turnId(), c.kind());
        }
    }

    /** The run; empty when there is none (or {@code runId} is null). */
    public Optional<StoredRun> run(String runId) {
        return reads.run(runId).map(StoredRun::of);
    }

    /** What run {@code runId} answered, when it succeeded. */
    public Optional<String> outputOf(String runId) {
        return run(runId).filter(run -> run.state() == RunState.SUCCEEDED).map(StoredRun::outputJson);
    }

    /** Up to {@code limit} of the lane's runs after {@code afterSeq}, in lane order. */
    public List<StoredRun> after(long threadId, long afterSeq, int limit) {
        return reads.after(threadId, afterSeq, limit).stream().map(StoredRun::of).toList();
    }

    /** The turn's runs in lane order. */
    public List<StoredRun> ofTurn(String turnId) {
        return ofTurns(List.of(turnId));
    }

    /** The runs of these turns, in lane order. */
    public List<StoredRun> ofTurns(Collection<String> turnIds) {
        return reads.with(RunColumns.TURN, turnIds).stream().map(StoredRun::of).toList();
    }
}
