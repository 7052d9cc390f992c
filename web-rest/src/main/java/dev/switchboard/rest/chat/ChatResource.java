package dev.switchboard.rest.chat;

import dev.switchboard.core.chat.ChatAnswer;
import dev.switchboard.core.chat.ChatJson;
import dev.switchboard.core.chat.ChatMessage;
import dev.switchboard.core.chat.ChatReply;
import dev.switchboard.core.chat.ChatService;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The chat gateway: {@code POST /v1/chat/messages} sends a message (text or a command) from a
 * channel; {@code GET /v1/chat/threads} lists the caller's threads; {@code POST /v1/chat/threads}
 * makes a new one; {@code GET /v1/chat/threads/{id}} reads one with its turns. A user sees only
 * their own session: another user's thread is 404, as an unknown one. A body that is not valid and
 * what the thread's state refuses are answered by {@link ChatErrorMappers}.
 */
@Path("/v1/chat")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class ChatResource {

    static final int DEFAULT_THREADS = 50;
    static final int DEFAULT_TURNS = 50;
    static final int MAX_TURNS = 200;

    @EJB
    ChatService chat;

    @Inject
    Caller caller;

    @Inject
    @ConfigProperty(name = "switchboard.http.max-body-bytes", defaultValue = "1048576")
    long maxBodyBytes;

    /** 202 for a message that became (or joined) a turn, 200 for an answered command. */
    @POST
    @Path("messages")
    public Response send(@Context HttpHeaders headers, InputStream body) {
        ChatMessage message = ChatMessage.of(object(read(headers, body).value()));
        ChatReply reply = chat.send(caller.user(), message.channel(), message.threadId(), message.content());
        int status = ChatReply.OK.equals(reply.status()) ? 200 : 202;
        return Response.status(status).entity(ChatJson.reply(reply).toString()).build();
    }

    @GET
    @Path("threads")
    public String threads(@QueryParam("limit") String limit) {
        int max = (int) QueryParams.bounded(limit, DEFAULT_THREADS, 1, ChatService.MAX_THREADS, "limit");
        return ChatJson.threads(chat.threads(caller.user(), max)).toString();
    }

    /** {@code {"channel":…}} (optional body): a new thread, the caller's active one. */
    @POST
    @Path("threads")
    public Response newThread(@Context HttpHeaders headers, InputStream body) {
        JsonBody.Parsed parsed = read(headers, body);
        String channel = parsed.absent() ? ChatMessage.DEFAULT_CHANNEL : ChatMessage.channel(object(parsed.value()));
        return Response.status(201).entity(ChatJson.thread(chat.newThread(caller.user(), channel)).toString()).build();
    }

    /** The thread and its turns, oldest first, paged by the thread's run sequence ({@code after_seq}). */
    @GET
    @Path("threads/{thread_id}")
    public String read(@PathParam("thread_id") String threadId, @QueryParam("after_seq") String afterSeq,
            @QueryParam("limit") String limit) {
        long after = QueryParams.bounded(afterSeq, 0, 0, Long.MAX_VALUE, "after_seq");
        int max = (int) QueryParams.bounded(limit, DEFAULT_TURNS, 1, MAX_TURNS, "limit");
        UUID id = Submissions.uuid(threadId).orElseThrow(ChatResource::threadNotFound);
        ChatService.History history = chat.history(caller.user(), id, after, max)
                .orElseThrow(ChatResource::threadNotFound);
        return ChatJson.history(history).toString();
    }

    /** {@code {"request_id":…, "action":"approve"|"always"|"deny", "channel":…}}: 202 with the turn that carries it out. */
    @POST
    @Path("threads/{thread_id}/approval")
    public Response approval(@PathParam("thread_id") String threadId, @Context HttpHeaders headers, InputStream body) {
        UUID id = Submissions.uuid(threadId).orElseThrow(ChatResource::threadNotFound);
        ChatAnswer answer = ChatAnswer.of(object(read(headers, body).value()));
        ChatReply reply = chat.answer(caller.user(), answer.channel(), id, answer.requestId(), answer.approved(),
                answer.always());
        return Response.status(202).entity(ChatJson.reply(reply).toString()).build();
    }

    /** {@code {"token":…}}: the credential the thread waits for; 202 with the turn that runs the waiting calls. */
    @POST
    @Path("threads/{thread_id}/auth")
    public Response authToken(@PathParam("thread_id") String threadId, @Context HttpHeaders headers, InputStream body) {
        UUID id = Submissions.uuid(threadId).orElseThrow(ChatResource::threadNotFound);
        String token = ChatMessage.token(object(read(headers, body).value()));
        return Response.status(202).entity(ChatJson.reply(chat.giveToken(caller.user(), id, token)).toString()).build();
    }

    /** Ends the thread's auth mode without a token. */
    @DELETE
    @Path("threads/{thread_id}/auth")
    public String authCancel(@PathParam("thread_id") String threadId) {
        UUID id = Submissions.uuid(threadId).orElseThrow(ChatResource::threadNotFound);
        return ChatJson.reply(chat.cancelAuth(caller.user(), id)).toString();
    }

    private JsonBody.Parsed read(HttpHeaders headers, InputStream body) {
        return JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body, maxBodyBytes);
    }

    private static JsonObject object(JsonValue body) {
        if (body == null || body.getValueType() != JsonValue.ValueType.OBJECT) {
            throw invalid("body must be a JSON object");
        }
        return body.asJsonObject();
    }

    static ApiException invalid(String message) {
        return new ApiException(400, "invalid_chat_payload", message);
    }

    static ApiException threadNotFound() {
        return new ApiException(404, "thread_not_found", "Thread not found.");
    }
}
