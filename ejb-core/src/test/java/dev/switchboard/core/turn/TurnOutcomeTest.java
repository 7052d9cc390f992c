package dev.switchboard.core.turn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.persistence.run.RunState;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnOutcomeTest {

    private static TurnOutcome.RunResult ok(String reply) {
        return new TurnOutcome.RunResult(RunState.SUCCEEDED, null, null, reply);
    }

    private static TurnOutcome.RunResult failed(String code, String message) {
        return new TurnOutcome.RunResult(RunState.FAILED, code, message, null);
    }

    @Test
    void aTurnWithAnUnfinishedRunHasNotEnded() {
        assertTrue(TurnOutcome.of(List.of(ok("a"), new TurnOutcome.RunResult(RunState.QUEUED, null, null, null)))
                .isEmpty());
        assertTrue(TurnOutcome.of(List.of(new TurnOutcome.RunResult(RunState.EXECUTING, null, null, null))).isEmpty());
    }

    @Test
    void completedWithTheLastReply() {
        assertEquals(new TurnOutcome("completed", "second"), TurnOutcome.of(List.of(ok("first"), ok("second"))).get());
    }

    @Test
    void anErrorFailsTheTurnAndAStopInterruptsIt() {
        assertEquals(new TurnOutcome("failed", "boom"), TurnOutcome.of(List.of(ok("a"), failed(null, "boom"))).get());
        assertEquals(new TurnOutcome("failed", "abandoned"), TurnOutcome.of(List.of(failed("abandoned", "abandoned"))).get());
        for (String code : List.of("interrupted", "cancelled", "superseded")) {
            assertEquals("interrupted", TurnOutcome.of(List.of(failed(code, "stop"), ok("b"))).get().outcome(), code);
        }
    }
}
