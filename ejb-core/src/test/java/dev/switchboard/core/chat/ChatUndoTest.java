package dev.switchboard.core.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.conversation.UndoLine;
import dev.switchboard.core.history.ContextWindow;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatUndoTest {

    @Test
    void aStoredLineReadsBackTheSame() {
        UndoLine<ChatState> line = new UndoLine<>();
        line.checkpoint(1, new ChatState(ContextWindow.ALL.closedAt(0), null), "Before turn 1");
        line.checkpoint(2, new ChatState(ContextWindow.ALL.closedAt(4), ""), "Before turn 2");
        line.undo(3, new ChatState(ContextWindow.ALL.closedAt(9), "4bd149d3790cef3c0b915550b04d96eadd76b875"));
        UndoLine<ChatState> read = ChatUndo.read(ChatUndo.write(line));
        assertEquals(line.undoStack(), read.undoStack());
        assertEquals(line.redoStack(), read.redoStack());
        assertEquals(List.of(new ContextWindow.Range(0, 9)), read.redoStack().get(0).state().context().ranges());
        assertEquals("4bd149d3790cef3c0b915550b04d96eadd76b875", read.redoStack().get(0).state().workspace());
        assertEquals(null, read.undoStack().get(0).state().workspace(), "no workspace then: none restored");
    }

    @Test
    void nothingStoredIsAnEmptyLine() {
        assertEquals(0, ChatUndo.read(null).undoCount());
        assertEquals(0, ChatUndo.read("").redoCount());
    }
}
