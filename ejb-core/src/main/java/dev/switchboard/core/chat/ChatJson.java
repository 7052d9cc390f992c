package dev.switchboard.core.chat;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.Lifecycle;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;

/** The chat gateway's JSON, the same over HTTP and JSON-RPC (docs/chat.md). */
public final class ChatJson {

    private ChatJson() {
    }

    public static JsonObject reply(ChatReply reply) {
        JsonObjectBuilder json = Jsons.createObjectBuilder().add("thread_id", reply.threadId().toString())
                .add("status", reply.status());
        nullable(json, "message", reply.message());
        nullable(json, "turn_id", reply.turnId());
        nullable(json, "run_id", reply.runId());
        return json.build();
    }

    public static JsonObject thread(ChatThreadView t) {
        JsonObjectBuilder json = Jsons.createObjectBuilder().add("id", t.threadId().toString()).add("state", t.state())
                .add("active_turns", t.activeTurns());
        nullable(json, "title", t.title());
        json.add("channel", t.sourceChannel()).add("created_at", Lifecycle.time(t.createdAt()))
                .add("updated_at", Lifecycle.time(t.updatedAt())).add("active", t.active());
        if (t.pending() == null) {
            json.addNull("pending_approval");
        } else {
            json.add("pending_approval", t.pending().shown(t.threadId().toString()));
        }
        if (t.pendingAuth() == null) {
            json.addNull("pending_auth");
        } else {
            json.add("pending_auth", t.pendingAuth());
        }
        return json.build();
    }

    /** {@code {"active_thread": id|null, "threads": [...]}}. */
    public static JsonObject threads(List<ChatThreadView> threads) {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        threads.forEach(t -> list.add(thread(t)));
        JsonObjectBuilder json = Jsons.createObjectBuilder();
        nullable(json, "active_thread", threads.stream().filter(ChatThreadView::active).findFirst()
                .map(t -> t.threadId().toString()).orElse(null));
        return json.add("threads", list).build();
    }

    /** {@code {"thread": …, "turns": [...], "next_after_seq": n|null}}. */
    public static JsonObject history(ChatService.History history) {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        history.turns().forEach(t -> list.add(turn(t)));
        JsonArrayBuilder checkpoints = Jsons.createArrayBuilder();
        history.checkpoints().forEach(c -> checkpoints.add(Jsons.createObjectBuilder().add("id", c.id().toString())
                .add("turn_number", c.turnNumber()).add("description", c.description())));
        JsonObjectBuilder json = Jsons.createObjectBuilder().add("thread", thread(history.thread())).add("turns", list)
                .add("checkpoints", checkpoints);
        if (history.nextAfterSeq() == null) {
            json.addNull("next_after_seq");
        } else {
            json.add("next_after_seq", history.nextAfterSeq());
        }
        return json.build();
    }

    public static JsonObject turn(ChatTurn t) {
        JsonObjectBuilder turn = Jsons.createObjectBuilder().add("seq", t.seq());
        nullable(turn, "turn_id", t.turnId());
        turn.add("run_id", t.runId()).add("user_input", t.userInput()).add("state", t.state());
        nullable(turn, "response", t.response());
        nullable(turn, "error", t.error());
        turn.add("started_at", Lifecycle.time(t.startedAt()));
        nullable(turn, "completed_at", t.completedAt() == null ? null : Lifecycle.time(t.completedAt()));
        return turn.build();
    }

    private static void nullable(JsonObjectBuilder json, String name, String value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }
}
