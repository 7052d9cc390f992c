package dev.switchboard.core.turn;

import dev.switchboard.core.execution.ThreadChoice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.RunEnding;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.thread.ThreadRuntime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a turn's end does to its thread's workspace line, as the lane's finish asks it. */
class WorkspaceRunsTest {

    private static final Lane LANE = new Lane(7, "owner", 1L, "r", 1, 3, 0,
            new ThreadChoice(new ThreadRuntime(null, null, null, "c1")));

    /** The workspace lines' statements, with the line's moves recorded instead of written. */
    private static final class RecordedRows extends ThreadWorkspaces {
        final List<String> moves = new ArrayList<>();

        @Override
        public void moveLine(long threadId, String head) {
            moves.add(threadId + "->" + head);
        }
    }

    private final RecordedRows rows = new RecordedRows();
    private final WorkspaceRuns runs = new WorkspaceRuns();

    WorkspaceRunsTest() {
        runs.workspaces = rows;
    }

    private RunEnding.Review review(String output) {
        return runs.review(new RunEnding.Ending(null, LANE, null, output, 1000));
    }

    @Test
    void anOutputWithoutAWorkspaceChangeLeavesTheLineAlone() {
        assertSame(RunEnding.Review.PROCEED, review("{\"type\":\"message\",\"text\":\"hi\"}"));
        assertSame(RunEnding.Review.PROCEED, review(null));
        assertSame(RunEnding.Review.PROCEED, review("{\"workspace\":{\"base\":\"c1\"}}"), "a change of nothing keeps nothing");
    }

    @Test
    void aChangeOnTheLinesHeadIsKeptOnlyWhenTheLaneAppliesIt() {
        RunEnding.Review kept = review("{\"type\":\"message\",\"workspace\":{\"base\":\"c1\",\"commit\":\"c2\"}}");
        assertNull(kept.error());
        assertNotNull(kept.keep());
        assertTrue(rows.moves.isEmpty(), "nothing moves before the run ends well");
        Lane after = kept.keep().apply(LANE);
        assertEquals(List.of("7->c2"), rows.moves);
        assertEquals("c2", ThreadChoice.of(after).workspace(), "the next run chained on the lane starts from the new head");
    }

    @Test
    void aChangeOnAnotherBaseFailsTheTurnAndKeepsNothing() {
        RunEnding.Review conflict = review("{\"type\":\"message\",\"workspace\":{\"base\":\"c0\",\"commit\":\"c2\"}}");
        assertTrue(conflict.fails());
        assertEquals(WorkspaceRuns.CONFLICT, conflict.error());
        assertNull(conflict.keep());
        assertTrue(rows.moves.isEmpty());
    }
}
