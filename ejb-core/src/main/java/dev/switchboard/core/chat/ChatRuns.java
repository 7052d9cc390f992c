package dev.switchboard.core.chat;

import dev.switchboard.core.engine.ToolResumption;
import dev.switchboard.core.execution.ExecutionPreparation;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.lane.Claim;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The chat gateway's own runs: a compaction's engine reads no conversation (its input is the
 * transcript to summarise), and a resumed tool call's engine gets the paused call it resumes.
 */
@ApplicationScoped
public class ChatRuns implements ExecutionPreparation {

    @Override
    public int order() {
        return 300;
    }

    @Override
    public Prepared prepare(Claim claim, Prepared prepared) {
        RunContent run = RunContent.of(claim);
        return switch (run.kind()) {
            case COMPACTION -> prepared.withInputs(prepared.inputs().withHistory(List::of));
            case RESUMPTION -> prepared.withInputs(prepared.inputs()
                    .withResumption(ToolResumption.parse(run.inputText()).orElse(null)));
            default -> prepared;
        };
    }
}
