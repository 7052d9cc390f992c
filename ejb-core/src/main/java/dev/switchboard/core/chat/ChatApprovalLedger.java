package dev.switchboard.core.chat;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.engine.ToolResumption;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.TurnEnded;
import dev.switchboard.core.lifecycle.TurnOpened;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Keeps a chat thread's pending approval in step with its turns, in their transactions: a turn
 * whose run paused for a person leaves the approval it waits for (and {@code approval/requested}),
 * in the transaction that ends it; the turn that carries out an answer takes it away (and
 * {@code approval/resolved}, and an "always" is remembered) in the transaction that opens it — or,
 * when the approval is gone by then, that turn is rolled back. So an approval is answered once,
 * on any instance, and one survives a restart.
 */
@ApplicationScoped
public class ChatApprovalLedger {

    static final String REQUESTED = "approval/requested";
    static final String RESOLVED = "approval/resolved";

    @Inject
    ChatRecords records;

    @Inject
    ChatSettings settings;

    @Inject
    ThreadRepository repository;

    @Inject
    Outbox outbox;

    @Inject
    InstanceClock clock;

    void turnEnded(@Observes TurnEnded turn) {
        Optional<UUID> chatThread = chatThread(turn.userKey(), turn.threadKey());
        if (chatThread.isEmpty() || !turn.isCompleted() || turn.firstRunId() == null) {
            return;
        }
        RunRecord run = repository.run(turn.firstRunId());
        String output = run == null ? null : run.getOutputJson();
        if (output == null || !output.contains("\"awaiting_approval\"")) {
            return;
        }
        JsonObject awaiting;
        try (JsonReader reader = Jsons.createReader(new StringReader(output))) {
            JsonValue found = reader.readObject().get("awaiting_approval");
            if (!(found instanceof JsonObject o)) {
                return;
            }
            awaiting = o;
        }
        List<JsonObject> calls = awaiting.getJsonArray("calls").getValuesAs(JsonObject.class);
        if (calls.isEmpty()) {
            return;
        }
        ChatPending pending = ChatPending.of(calls, settings::needOf, turn.turnId(), clock.millis());
        records.writePending(chatThread.get(), pending.toJson());
        outbox.append(turn.userKey(), turn.threadKey(), REQUESTED, pending.shown(turn.threadKey()));
    }

    void turnOpened(@Observes TurnOpened opened) {
        Optional<ToolResumption> resumption = opened.input().getValuesAs(JsonObject.class).stream()
                .filter(item -> ToolResumption.ITEM_TYPE.equals(item.getString("type", "")))
                .findFirst()
                .flatMap(item -> ToolResumption.parse(item.getJsonArray("content").getJsonObject(0).getString("text")));
        if (resumption.isEmpty()) {
            return;
        }
        UUID thread = chatThread(opened.userKey(), opened.threadKey())
                .orElseThrow(() -> new ApprovalGoneException("the thread is not a chat thread"));
        String stored = records.lockPending(thread);
        ToolResumption answer = resumption.get();
        if (stored == null || !ChatPending.fromJson(stored).requestId().toString().equals(answer.requestId())) {
            throw new ApprovalGoneException("the approval was answered or dropped meanwhile");
        }
        ChatPending pending = ChatPending.fromJson(stored);
        records.writePending(thread, null);
        if (answer.approved() && answer.always()) {
            records.writeAutoApproved(opened.userKey(),
                    ChatApprovals.withTool(records.autoApproved(opened.userKey()), pending.toolName()));
        }
        outbox.append(opened.userKey(), opened.threadKey(), RESOLVED, resolved(opened.threadKey(), pending,
                !answer.approved() ? "deny" : answer.always() ? "always" : "approve", opened.turnId()));
    }

    /** Drops the thread's pending approval, if any (interrupt, clear, undo, redo: decision I5), telling clients. */
    public boolean drop(String userKey, UUID thread, String why) {
        String stored = records.lockPending(thread);
        if (stored == null) {
            return false;
        }
        records.writePending(thread, null);
        outbox.append(userKey, thread.toString(), RESOLVED, Jsons.createObjectBuilder(resolved(thread.toString(),
                ChatPending.fromJson(stored), "dropped", null)).add("reason", why).build());
        return true;
    }

    /** {@code approval/requested} again for what the thread waits for (input while it waits: spec §7.2). */
    public void remind(String userKey, UUID thread, ChatPending pending) {
        outbox.append(userKey, thread.toString(), REQUESTED, pending.shown(thread.toString()));
    }

    private static JsonObject resolved(String threadId, ChatPending pending, String action, String turnId) {
        var json = Jsons.createObjectBuilder().add("thread_id", threadId).add("request_id", pending.requestId().toString())
                .add("tool_name", pending.toolName()).add("action", action);
        if (turnId != null) {
            json.add("turn_id", turnId);
        }
        return json.build();
    }

    private Optional<UUID> chatThread(String userKey, String threadKey) {
        return Optional.ofNullable(threadKey).flatMap(Submissions::uuid)
                .filter(id -> records.thread(id).filter(t -> t.userKey().equals(userKey)).isPresent());
    }
}
