package dev.switchboard.core.rpc;

import dev.switchboard.core.chat.ChatAnswer;
import dev.switchboard.core.chat.ChatJson;
import dev.switchboard.core.chat.ChatMessage;
import dev.switchboard.core.chat.ChatService;
import dev.switchboard.core.conversation.Submissions;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import java.util.UUID;

/**
 * The {@code chat/*} methods ({@link RpcMethods}): the chat gateway's threads, messages, approvals
 * and credential prompts, as its HTTP API has them ({@code /v1/chat/...}).
 */
@ApplicationScoped
public class ChatMethods {

    @EJB
    ChatService chat;

    /** {@code chat/send}: {@code {content, channel?, thread_id?}} as {@code POST /v1/chat/messages}. */
    public JsonObject send(String userKey, Params params) {
        ChatMessage message = ChatMessage.of(params.object());
        return ChatJson.reply(chat.send(userKey, message.channel(), message.threadId(), message.content()));
    }

    /** {@code chat/approve}: {@code {thread_id, request_id?, action, channel?}} as {@code POST /v1/chat/threads/{id}/approval}. */
    public JsonObject approve(String userKey, Params params) {
        UUID id = chatThread(params);
        ChatAnswer answer = ChatAnswer.of(params.object());
        return ChatJson.reply(chat.answer(userKey, answer.channel(), id, answer.requestId(), answer.approved(),
                answer.always()));
    }

    /** The {@code thread_id} of a chat method's params: a chat thread's id. */
    private static UUID chatThread(Params params) {
        String thread = params.trimmed("thread_id");
        UUID id = thread == null ? null : Submissions.uuid(thread).orElse(null);
        if (id == null) {
            throw new RpcException(RpcError.invalidField("thread_id", "thread_id is required: a chat thread's id"));
        }
        return id;
    }

    /** {@code chat/read}: {@code {thread_id, after_seq?, limit?}} as {@code GET /v1/chat/threads/{id}}. */
    public JsonObject read(String userKey, Params params) {
        String thread = params.trimmed("thread_id");
        if (thread == null) {
            throw new RpcException(RpcError.invalidField("thread_id", "thread_id is required"));
        }
        long after = params.integer("after_seq", 0);
        int limit = params.bounded("limit", 1, 200, 50, "limit must be 1 to 200");
        ChatService.History history = Submissions.uuid(thread)
                .flatMap(id -> chat.history(userKey, id, Math.max(0, after), limit))
                .orElseThrow(() -> new RpcException(RpcError.invalidField("thread_id", "Thread not found.")));
        return ChatJson.history(history);
    }

    /** {@code chat/threads}: {@code {limit?}} as {@code GET /v1/chat/threads}. */
    public JsonObject threads(String userKey, Params params) {
        return ChatJson.threads(chat.threads(userKey,
                params.bounded("limit", 1, ChatService.MAX_THREADS, 50, "limit must be 1 to 500")));
    }

    /** {@code chat/newThread}: {@code {channel?}} as {@code POST /v1/chat/threads}. */
    public JsonObject newThread(String userKey, Params params) {
        return ChatJson.thread(chat.newThread(userKey, ChatMessage.channel(params.object())));
    }

    /** {@code chat/authToken}: {@code {thread_id, token}} as {@code POST /v1/chat/threads/{id}/auth}. */
    public JsonObject authToken(String userKey, Params params) {
        return ChatJson.reply(chat.giveToken(userKey, chatThread(params), ChatMessage.token(params.object())));
    }

    /** {@code chat/authCancel}: {@code {thread_id}} as {@code DELETE /v1/chat/threads/{id}/auth}. */
    public JsonObject authCancel(String userKey, Params params) {
        return ChatJson.reply(chat.cancelAuth(userKey, chatThread(params)));
    }
}
