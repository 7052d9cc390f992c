package dev.switchboard.core.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The rules of a thread's workspace line, without a container. */
class LineMoveTest {

    private static final String C1 = "1111111111111111111111111111111111111111";
    private static final String C2 = "2222222222222222222222222222222222222222";

    @Test
    void aChangeSetOnTheHeadMovesTheLineToItsCommitAndNoChangeLeavesIt() {
        assertEquals(new LineMove(false, C2), LineMove.of(C1, C1, C2));
        assertEquals(new LineMove(false, C1), LineMove.of(null, Workspaces.START, C1), "no line yet is the start");
        assertEquals(new LineMove(false, C1), LineMove.of(Workspaces.START, Workspaces.START, C1));
        assertEquals(false, LineMove.of(C1, C1, null).moves(), "nothing changed: the line stays");
    }

    @Test
    void aChangeSetTakenOnAHeadTheLineHasLeftIsAConflictAndMovesNothing() {
        LineMove stale = LineMove.of(C2, C1, "3333333333333333333333333333333333333333");
        assertEquals(true, stale.conflict());
        assertEquals(false, stale.moves());
        assertEquals(true, LineMove.of(C1, Workspaces.START, null).conflict(), "even one that changed nothing");
    }

    @Test
    void aRecordReadsTheStatusItsRunHasNow() {
        assertEquals("completed", TurnStatus.of("succeeded", null, "completed"));
        assertEquals("failed", TurnStatus.of("failed", null, "completed"), "e.g. workspace_conflict after the record");
        assertEquals("cancelled", TurnStatus.of("failed", "cancelled", "cancelled"));
        assertEquals("interrupted", TurnStatus.of("failed", "interrupted", "cancelled"));
        assertEquals("running", TurnStatus.of("executing", null, "failed"), "a failed attempt, executed again now");
        assertEquals("running", TurnStatus.of("queued", null, "failed"));
    }
}
