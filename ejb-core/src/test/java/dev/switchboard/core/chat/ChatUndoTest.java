package dev.switchboard.core.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.conversation.UndoLine;
import dev.switchboard.core.history.ContextWindow;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatUndoTest {

    @Test
    void aStoredLineReadsBackTheSame() {
        UndoLine<ContextWindow> line = new UndoLine<>();
        line.checkpoint(1, ContextWindow.ALL.closedAt(0), "Before turn 1");
        line.checkpoint(2, ContextWindow.ALL.closedAt(4), "Before turn 2");
        line.undo(3, ContextWindow.ALL.closedAt(9));
        UndoLine<ContextWindow> read = ChatUndo.read(ChatUndo.write(line));
        assertEquals(line.undoStack(), read.undoStack());
        assertEquals(line.redoStack(), read.redoStack());
        assertEquals(List.of(new ContextWindow.Range(0, 9)), read.redoStack().get(0).state().ranges());
    }

    @Test
    void nothingStoredIsAnEmptyLine() {
        assertEquals(0, ChatUndo.read(null).undoCount());
        assertEquals(0, ChatUndo.read("").redoCount());
    }
}
