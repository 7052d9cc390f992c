package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.PendingAuth;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The credential a chat thread waits for, as stored ({@code chat_threads.pending_auth}): the
 * request id, the credential's name, when it was asked (the TTL runs from there, across restarts)
 * and the tool calls of the model's message that were left, the waiting one first, to run once it
 * is given. Plain: made from a paused run's output.
 */
public record ChatAuthPrompt(UUID requestId, String credential, String toolName, List<JsonObject> calls,
        String turnId, long createdAt) {

    public ChatAuthPrompt {
        calls = List.copyOf(calls);
    }

    /** The prompt for a run that paused with {@code calls} left waiting for {@code credential}. */
    public static ChatAuthPrompt of(String credential, List<JsonObject> calls, String turnId, long now) {
        return new ChatAuthPrompt(UUID.randomUUID(), credential, calls.get(0).getString("name", ""), calls, turnId, now);
    }

    /** Asked again now (a token that was not valid): a fresh TTL. */
    public ChatAuthPrompt renewed(long now) {
        return new ChatAuthPrompt(requestId, credential, toolName, calls, turnId, now);
    }

    /** The spec's view of it, for the auth-mode rules. */
    public PendingAuth auth() {
        return new PendingAuth(credential, Instant.ofEpochMilli(createdAt));
    }

    /** What clients are shown (notifications, the thread's JSON). */
    public JsonObject shown(String threadId, Duration ttl) {
        return Jsons.createObjectBuilder().add("thread_id", threadId).add("request_id", requestId.toString())
                .add("credential", credential).add("tool_name", toolName).add("turn_id", turnId)
                .add("expires_at", Instant.ofEpochMilli(createdAt).plus(ttl).toString())
                .add("instructions", "Send the token for " + credential + " as your next message on this thread"
                        + " (or to POST /v1/chat/threads/" + threadId + "/auth) within " + ttl.toSeconds()
                        + " seconds; any command cancels.")
                .build();
    }

    public String toJson() {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        calls.forEach(list::add);
        return Jsons.createObjectBuilder().add("request_id", requestId.toString()).add("credential", credential)
                .add("tool_name", toolName).add("calls", list).add("turn_id", turnId).add("created_at", createdAt)
                .build().toString();
    }

    public static ChatAuthPrompt fromJson(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            JsonObject o = reader.readObject();
            return new ChatAuthPrompt(UUID.fromString(o.getString("request_id")), o.getString("credential"),
                    o.getString("tool_name"), o.getJsonArray("calls").getValuesAs(JsonObject.class),
                    o.getString("turn_id"), o.getJsonNumber("created_at").longValue());
        }
    }
}
