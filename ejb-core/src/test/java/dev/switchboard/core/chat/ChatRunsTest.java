package dev.switchboard.core.chat;

import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.execution.ThreadChoice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.switchboard.core.engine.ToolResumption;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.execution.EngineInputs;
import dev.switchboard.core.execution.ExecutionPreparation;
import dev.switchboard.core.thread.ThreadRuntime;
import dev.switchboard.persistence.run.RunKind;
import jakarta.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the chat gateway's own runs are prepared: by their kind, never by their source. */
class ChatRunsTest {

    private static final ExecutionPreparation.Prepared BEFORE = new ExecutionPreparation.Prepared(null,
            EngineInputs.NONE.withHistory(() -> List.of(Json.createObjectBuilder().add("role", "user").build())));

    private static Claim claim(RunKind kind, String input) {
        return new Claim("r", 7, 1, 1000, 0, RunContent.of("u", "t", "chat:anything", kind, null, "followUp", input, null,
                "turn", "hash"), new ThreadChoice(ThreadRuntime.DEFAULT));
    }

    @Test
    void aCompactionReadsNoConversation() {
        assertEquals(List.of(), new ChatRuns().prepare(claim(RunKind.COMPACTION, "transcript"), BEFORE).inputs().history().get());
    }

    @Test
    void aResumedToolCallGetsThePausedCallItResumes() {
        ToolResumption paused = new ToolResumption("req-1", List.of(), true, false, null);
        EngineInputs in = new ChatRuns().prepare(claim(RunKind.RESUMPTION, paused.toJson().toString()), BEFORE).inputs();
        assertEquals("req-1", in.resumption().requestId());
        assertEquals(1, in.history().get().size(), "it reads its thread's conversation as any turn");
    }

    @Test
    void otherRunsAreLeftAsTheyAre() {
        assertSame(BEFORE, new ChatRuns().prepare(claim(RunKind.CHAT, "hello"), BEFORE));
        assertNull(new ChatRuns().prepare(claim(RunKind.MESSAGE, "hello"), BEFORE).inputs().resumption());
    }
}
