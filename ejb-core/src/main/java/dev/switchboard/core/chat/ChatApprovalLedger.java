package dev.switchboard.core.chat;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.conversation.PendingAuth;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.credential.Credentials;
import dev.switchboard.core.engine.ToolResumption;
import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.TurnEndings;
import dev.switchboard.core.lifecycle.TurnEnded;
import dev.switchboard.core.lifecycle.TurnOpened;
import dev.switchboard.core.notify.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Keeps what a chat thread waits for in step with its turns, in their transactions: a turn whose
 * run paused for a person leaves the approval it waits for (and {@code approval/requested}), one
 * that paused for the user's credential the auth prompt (and {@code auth/required}), in the
 * transaction that ends it; the turn that carries out an answer takes the approval away (and
 * {@code approval/resolved}, and an "always" is remembered) in the transaction that opens it — or,
 * when the approval is gone by then, that turn is rolled back. So an approval is answered once,
 * on any instance, and one survives a restart. A token given for the prompt is sealed into the
 * user's credentials in the transaction that ends auth mode ({@code auth/completed}).
 */
@ApplicationScoped
public class ChatApprovalLedger implements TurnEndings {

    static final String REQUESTED = "approval/requested";
    static final String RESOLVED = "approval/resolved";
    static final String AUTH_REQUIRED = "auth/required";
    static final String AUTH_COMPLETED = "auth/completed";
    static final String NO_PENDING_AUTH = "No authentication is pending on this thread.";

    /** What became of a token given to a thread that asked for a credential. */
    public enum TokenOutcome {
        /** Stored; the waiting calls may run. */
        ACCEPTED,
        /** Not a token: asked again, with a fresh TTL. */
        INVALID,
        /** Too late: auth mode ended. */
        EXPIRED,
        /** The thread waits for no credential (given, cancelled or dropped meanwhile). */
        NONE
    }

    @Inject
    Credentials credentials;

    @Inject
    ChatRecords records;

    @Inject
    ChatSettings settings;

    @Inject
    StoredRuns storedRuns;

    @Inject
    Outbox outbox;

    @Inject
    InstanceClock clock;

    @Override
    public int order() {
        return 100;
    }

    @Override
    public void turnEnded(TurnEnded turn) {
        Optional<UUID> chatThread = chatThread(turn.userKey(), turn.threadKey());
        if (chatThread.isEmpty() || !turn.isCompleted() || turn.firstRunId() == null) {
            return;
        }
        String output = storedRuns.outputOf(turn.firstRunId()).orElse(null); // a completed turn's run succeeded
        if (output == null || !output.contains("\"awaiting_")) {
            return;
        }
        JsonObject result;
        try (JsonReader reader = Jsons.createReader(new StringReader(output))) {
            result = reader.readObject();
        }
        if (result.get("awaiting_approval") instanceof JsonObject awaiting) {
            List<JsonObject> calls = awaiting.getJsonArray("calls").getValuesAs(JsonObject.class);
            if (!calls.isEmpty()) {
                ChatPending pending = ChatPending.of(calls, settings::needOf, settings.redaction(), turn.turnId(),
                        clock.millis());
                records.writePending(turn.userKey(), chatThread.get(), pending.toJson());
                outbox.append(turn.userKey(), turn.threadKey(), REQUESTED, pending.shown(turn.threadKey()));
            }
        } else if (result.get("awaiting_token") instanceof JsonObject awaiting) {
            List<JsonObject> calls = awaiting.getJsonArray("calls").getValuesAs(JsonObject.class);
            if (!calls.isEmpty()) {
                ChatAuthPrompt prompt = ChatAuthPrompt.of(awaiting.getString("credential"), calls, turn.turnId(),
                        clock.millis());
                records.writePendingAuth(turn.userKey(), chatThread.get(), prompt.toJson());
                outbox.append(turn.userKey(), turn.threadKey(), AUTH_REQUIRED,
                        prompt.shown(turn.threadKey(), settings.authTtl()));
            }
        }
    }

    /**
     * A token for the credential the thread waits for (spec §9), under the thread's lock: sealed
     * into the user's credentials, or — not a token — asked for again, or — too late — auth mode
     * ended. The token itself is in no row, notification or log line.
     *
     * @param prompt receives the prompt the token answers (all but {@link TokenOutcome#NONE})
     */
    public TokenOutcome giveToken(String userKey, UUID thread, String text, java.util.function.Consumer<ChatAuthPrompt> prompt) {
        records.lockSession(userKey); // one user's credential writes one at a time
        String stored = records.lockPendingAuth(userKey, thread);
        if (stored == null) {
            return TokenOutcome.NONE;
        }
        ChatAuthPrompt asked = ChatAuthPrompt.fromJson(stored);
        prompt.accept(asked);
        long now = clock.millis();
        if (asked.auth().isExpired(java.time.Instant.ofEpochMilli(now), settings.authTtl())) {
            endAuth(userKey, thread, asked, "expired", asked.auth().expiredReply());
            return TokenOutcome.EXPIRED;
        }
        Optional<String> token = PendingAuth.token(text);
        if (token.isEmpty()) {
            ChatAuthPrompt again = asked.renewed(now);
            records.writePendingAuth(userKey, thread, again.toJson());
            outbox.append(userKey, thread.toString(), AUTH_REQUIRED, Jsons.createObjectBuilder(
                    again.shown(thread.toString(), settings.authTtl())).add("message", PendingAuth.INVALID_TOKEN).build());
            return TokenOutcome.INVALID;
        }
        credentials.put(userKey, asked.credential(), token.get(), now);
        endAuth(userKey, thread, asked, "ready", "Authentication for " + asked.credential() + " completed.");
        return TokenOutcome.ACCEPTED;
    }

    /** Ends the thread's auth mode without a token ({@code why}: cancelled, expired, interrupt, …); false when it was in none. */
    public boolean endAuth(String userKey, UUID thread, String why) {
        String stored = records.lockPendingAuth(userKey, thread);
        if (stored == null) {
            return false;
        }
        ChatAuthPrompt asked = ChatAuthPrompt.fromJson(stored);
        endAuth(userKey, thread, asked, "expired".equals(why) ? "expired" : "cancelled",
                "expired".equals(why) ? asked.auth().expiredReply() : "Authentication for " + asked.credential()
                        + " cancelled (" + why + ").");
        return true;
    }

    private void endAuth(String userKey, UUID thread, ChatAuthPrompt asked, String state, String message) {
        records.writePendingAuth(userKey, thread, null);
        outbox.append(userKey, thread.toString(), AUTH_COMPLETED, Jsons.createObjectBuilder()
                .add("thread_id", thread.toString()).add("request_id", asked.requestId().toString())
                .add("credential", asked.credential()).add("state", state).add("message", message).build());
    }

    void turnOpened(@Observes TurnOpened opened) {
        Optional<ToolResumption> resumption = opened.input().getValuesAs(JsonObject.class).stream()
                .filter(item -> ToolResumption.ITEM_TYPE.equals(item.getString("type", "")))
                .findFirst()
                .flatMap(item -> ToolResumption.parse(item.getJsonArray("content").getJsonObject(0).getString("text")));
        if (resumption.isEmpty() || resumption.get().recheck()) {
            return; // a credential's resumption: auth mode ended when the token was stored
        }
        UUID thread = chatThread(opened.userKey(), opened.threadKey())
                .orElseThrow(() -> new ApprovalGoneException("the thread is not a chat thread"));
        String stored = records.lockPending(opened.userKey(), thread);
        ToolResumption answer = resumption.get();
        if (stored == null || !ChatPending.fromJson(stored).requestId().toString().equals(answer.requestId())) {
            throw new ApprovalGoneException("the approval was answered or dropped meanwhile");
        }
        ChatPending pending = ChatPending.fromJson(stored);
        records.writePending(opened.userKey(), thread, null);
        if (answer.approved() && answer.always()) {
            records.writeAutoApproved(opened.userKey(),
                    ChatApprovals.withTool(records.autoApproved(opened.userKey()), pending.toolName()));
        }
        outbox.append(opened.userKey(), opened.threadKey(), RESOLVED, resolved(opened.threadKey(), pending,
                !answer.approved() ? "deny" : answer.always() ? "always" : "approve", opened.turnId()));
    }

    /**
     * Drops what the thread waits for, if anything — its pending approval, its auth prompt
     * (interrupt, clear, undo, redo: decision I5) — telling clients.
     */
    public boolean drop(String userKey, UUID thread, String why) {
        boolean auth = endAuth(userKey, thread, why);
        String stored = records.lockPending(userKey, thread);
        if (stored == null) {
            return auth;
        }
        records.writePending(userKey, thread, null);
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
                .filter(id -> records.thread(userKey, id).isPresent());
    }
}
