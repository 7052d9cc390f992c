package dev.switchboard.core.delegation;

import dev.switchboard.core.execution.RunContent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.lane.LaneRun;
import dev.switchboard.core.lane.RunEnding;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunState;
import org.junit.jupiter.api.Test;

/** How delegation reviews an execution's output before the lane records it, without a database. */
class DelegatedRunsTest {

    private final DelegatedRuns delegation = new DelegatedRuns();

    private static LaneRun run(RunKind kind) {
        return new LaneRun("r", 7, 1, RunState.EXECUTING, 1, 0, "owner", 1000, new RunContent("u", "t", "src", kind, null,
                "followUp", "hi", null, "turn", "hash", new RunContent.TurnAsRead(true, 1000, null, 1)));
    }

    private RunEnding.Review review(RunKind kind, String output) {
        return delegation.review(new RunEnding.Ending(null, null, run(kind), output, 2000));
    }

    @Test
    void anAnswerGoesOnToBeRecorded() {
        assertSame(RunEnding.Review.PROCEED, review(RunKind.MESSAGE, "{\"type\":\"message\",\"text\":\"hi\"}"));
        assertSame(RunEnding.Review.PROCEED, review(RunKind.MESSAGE, null), "an engine's failure is not delegation's");
    }

    @Test
    void askingForCallsWithoutNamingAnyFailsTheRun() {
        RunEnding.Review review = review(RunKind.MESSAGE, "{\"type\":\"" + Delegation.CALLS + "\"}");
        assertEquals(DelegatedRuns.NO_CALLS, review.error());
    }

    @Test
    void answeringNothingIsIncompleteForAUnitOfWorkButAReplyForADelegatedCall() {
        String nothing = Delegation.nothing().toString();
        RunEnding.Review unit = review(RunKind.TURN, nothing);
        assertEquals("incomplete", unit.errorCode());
        assertEquals(DelegatedRuns.INCOMPLETE, unit.error());
        assertSame(RunEnding.Review.PROCEED, review(RunKind.DELEGATED, nothing), "a delegated call may answer nothing");
    }
}
