package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.conversation.UndoLine.Checkpoint;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Undo and redo checkpoints (spec §10; upstream undo.rs, §14.3, with decision I9). */
class UndoLineTest {

    @Test
    void checkpointsAreCountedAndCapped() {
        UndoLine<List<String>> line = new UndoLine<>(3);
        line.checkpoint(1, List.of(), "Before turn 1");
        line.checkpoint(2, List.of("a"), "Before turn 2");
        assertEquals(2, line.undoCount());
        line.checkpoint(3, List.of("a", "b"), "Before turn 3");
        line.checkpoint(4, List.of("a", "b", "c"), "Before turn 4");
        line.checkpoint(5, List.of("a", "b", "c", "d"), "Before turn 5");
        assertEquals(3, line.undoCount());
        assertEquals(3, line.undoStack().get(0).turnNumber(), "the oldest went first");
    }

    @Test
    void repeatedUndoWalksBackAndRedoReturnsTheSavedState() {
        UndoLine<List<String>> line = new UndoLine<>();
        line.checkpoint(1, List.of(), "Before turn 1");
        line.checkpoint(2, List.of("u1", "a1"), "Before turn 2");
        List<String> current = List.of("u1", "a1", "u2", "a2");
        Checkpoint<List<String>> second = line.undo(3, current).orElseThrow();
        assertEquals(2, second.turnNumber());
        assertTrue(line.canRedo());
        Checkpoint<List<String>> first = line.undo(2, second.state()).orElseThrow();
        assertEquals(1, first.turnNumber());
        assertFalse(line.canUndo());
        assertEquals(Optional.empty(), line.undo(1, first.state()));
        assertEquals(2, line.redoCount());

        Checkpoint<List<String>> redone = line.redo(1, first.state()).orElseThrow();
        assertEquals(2, redone.turnNumber());
        assertEquals(List.of("u1", "a1"), redone.state());
        Checkpoint<List<String>> again = line.redo(2, redone.state()).orElseThrow();
        assertEquals(current, again.state(), "the state before the first undo comes back");
        assertEquals(Optional.empty(), line.redo(3, current));
    }

    @Test
    void undoAndRedoKeepTheSumOfBothStacks() {
        UndoLine<String> line = new UndoLine<>();
        line.checkpoint(1, "s1", "Before turn 1");
        line.checkpoint(2, "s2", "Before turn 2");
        line.checkpoint(3, "s3", "Before turn 3");
        line.undo(4, "s4");
        assertEquals(3, line.undoCount() + line.redoCount());
        line.undo(3, "s3");
        assertEquals(3, line.undoCount() + line.redoCount());
        line.redo(2, "s2");
        assertEquals(3, line.undoCount() + line.redoCount());
        line.checkpoint(3, "s3'", "Before turn 3");
        assertEquals(0, line.redoCount(), "a new checkpoint clears redo");
    }

    @Test
    void restoringACheckpointDropsNewerOnesAndKeepsTheCurrentStateForRedo() {
        UndoLine<String> line = new UndoLine<>();
        Checkpoint<String> first = line.checkpoint(1, "s1", "Before turn 1");
        line.checkpoint(2, "s2", "Before turn 2");
        line.checkpoint(3, "s3", "Before turn 3");
        assertEquals(Optional.empty(), line.restore(UUID.randomUUID(), 4, "s4"));
        assertEquals(3, line.undoCount(), "an unknown id changes nothing");
        assertEquals(first, line.restore(first.id(), 4, "s4").orElseThrow());
        assertEquals(0, line.undoCount());
        assertEquals("s4", line.redo(1, "s1").orElseThrow().state(), "I9: the state restored away from can be redone");
    }

    @Test
    void redoIsCappedToo() {
        UndoLine<Integer> line = new UndoLine<>(2);
        for (int i = 1; i <= 4; i++) {
            line.checkpoint(i, i, "Before turn " + i);
        }
        line.undo(5, 5);
        line.undo(4, 4);
        assertEquals(2, line.redoCount());
        assertEquals(0, line.undoCount());
        line.clear();
        assertFalse(line.canRedo());
    }
}
