package dev.switchboard.core.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.engine.Delegation;
import dev.switchboard.persistence.run.RunState;
import org.junit.jupiter.api.Test;

/** What a call's end means for its caller (§3.5, §3.6, X9) and how a tree's root closes. */
class PathEndsTest {

    @Test
    void anAnswerIsDeliveredAsTheReplyAndThePathResponds() {
        assertEquals(new PathEnds.CallEnd("reply", null, "4", "responded", "4"),
                PathEnds.ofCall(RunState.SUCCEEDED, "{\"type\":\"message\",\"text\":\"4\"}", null));
    }

    @Test
    void answeringNothingIsAnAckAndThePathCompletes() {
        assertEquals(new PathEnds.CallEnd("ack", null, "ack", "completed", "ack"),
                PathEnds.ofCall(RunState.SUCCEEDED, Delegation.nothing().toString(), null));
    }

    @Test
    void aFailedHandlerIsAGenericHandlerErrorAndThePathKeepsTheRealOne() {
        PathEnds.CallEnd failed = PathEnds.ofCall(RunState.FAILED, null, "boom: NullPointerException");
        assertEquals(new PathEnds.CallEnd("error", "handler", PathEnds.HANDLER_FAILED, "failed",
                "boom: NullPointerException"), failed);
    }

    @Test
    void aRootClosesAsItsUnitOfWorkEnded() {
        assertEquals("completed", PathEnds.ofUnit(RunState.SUCCEEDED, null));
        assertEquals("cancelled", PathEnds.ofUnit(RunState.FAILED, "cancelled"));
        assertEquals("cancelled", PathEnds.ofUnit(RunState.FAILED, "interrupted"));
        assertEquals("failed", PathEnds.ofUnit(RunState.FAILED, "incomplete"));
        assertEquals("failed", PathEnds.ofUnit(RunState.FAILED, null));
    }
}
