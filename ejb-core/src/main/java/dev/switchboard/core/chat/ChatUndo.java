package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.UndoLine;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A chat thread's undo line as stored ({@code chat_threads.undo}): its checkpoints, each the
 * thread's context window before a turn and where its workspace line was then, oldest first.
 */
public final class ChatUndo {

    private ChatUndo() {
    }

    /** The stored line; an empty one for null. */
    public static UndoLine<ChatState> read(String json) {
        if (json == null || json.isBlank()) {
            return new UndoLine<>();
        }
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            JsonObject stored = reader.readObject();
            return new UndoLine<>(UndoLine.MAX_CHECKPOINTS, checkpoints(stored, "undo"), checkpoints(stored, "redo"));
        }
    }

    public static String write(UndoLine<ChatState> line) {
        return Jsons.createObjectBuilder().add("undo", array(line.undoStack())).add("redo", array(line.redoStack()))
                .build().toString();
    }

    private static JsonArrayBuilder array(List<UndoLine.Checkpoint<ChatState>> checkpoints) {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        for (UndoLine.Checkpoint<ChatState> c : checkpoints) {
            var stored = Jsons.createObjectBuilder().add("id", c.id().toString()).add("turn", c.turnNumber())
                    .add("description", c.description()).add("context", c.state().context().toJson());
            if (c.state().workspace() != null) {
                stored.add("workspace", c.state().workspace());
            }
            list.add(stored);
        }
        return list;
    }

    private static List<UndoLine.Checkpoint<ChatState>> checkpoints(JsonObject stored, String name) {
        List<UndoLine.Checkpoint<ChatState>> list = new ArrayList<>();
        for (JsonValue v : stored.getJsonArray(name)) {
            JsonObject c = v.asJsonObject();
            list.add(new UndoLine.Checkpoint<>(UUID.fromString(c.getString("id")), c.getInt("turn"),
                    new ChatState(ContextWindow.fromJson(c.getJsonObject("context")), c.getString("workspace", null)),
                    c.getString("description")));
        }
        return list;
    }
}
