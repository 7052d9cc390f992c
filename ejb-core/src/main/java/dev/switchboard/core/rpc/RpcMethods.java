package dev.switchboard.core.rpc;

import dev.switchboard.core.chat.ChatMessage;
import dev.switchboard.core.chat.ChatRejectedException;
import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.turn.TurnRejectedException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.Set;

/**
 * The control plane's JSON-RPC methods (holon-serve spec §4 plus Switchboard's reads), for one
 * authenticated user. Transports parse envelopes ({@link RpcEnvelope}) and call {@link #call};
 * failures are thrown as {@link RpcException}.
 */
@ApplicationScoped
public class RpcMethods {

    /** Holon's names for the server methods. */
    static final Map<String, String> ALIASES = Map.of(
            "holon/status", "server/status",
            "holon/pause", "server/pause",
            "holon/resume", "server/resume",
            "holon/logStream", "server/logStream");

    static final Set<String> METHODS = Set.of("server/status", "server/pause", "server/resume", "server/logStream",
            "server/instances", "server/series",
            "thread/start", "thread/list", "thread/read", "turn/start", "turn/steer", "turn/interrupt", "turn/read",
            "chat/send", "chat/threads", "chat/newThread", "chat/read", "chat/approve",
            "chat/authToken", "chat/authCancel", "run/tree",
            "webhook/create", "webhook/list", "webhook/read", "webhook/update", "webhook/delete", "webhook/rotate",
            "webhook/messages", "webhook/attempts", "webhook/replay");

    @Inject
    ServerMethods server;

    @Inject
    ThreadMethods threads;

    @Inject
    ChatMethods chat;

    @Inject
    WebhookMethods webhooks;

    /** The canonical name of a method, or null when there is no such method. */
    public static String canonical(String method) {
        String name = ALIASES.getOrDefault(method, method);
        return METHODS.contains(name) ? name : null;
    }

    public JsonObject call(String userKey, String method, JsonValue rawParams) {
        String name = canonical(method);
        if (name == null) {
            throw new RpcException(new RpcError(RpcError.METHOD_NOT_FOUND, "Method not found", null));
        }
        Params params = Params.of(rawParams);
        try {
            return switch (name) {
                case "server/status" -> server.status(userKey);
                case "server/pause" -> server.pause(userKey);
                case "server/resume" -> server.resume(userKey);
                case "server/logStream" -> server.logStream(userKey, params);
                case "server/instances" -> server.instances();
                case "server/series" -> server.series(params);
                case "thread/start" -> threads.threadStart(userKey, params);
                case "thread/list" -> threads.threadList(userKey, params);
                case "thread/read" -> threads.threadRead(userKey, params);
                case "turn/start" -> threads.turnStart(userKey, params);
                case "turn/steer" -> threads.turnSteer(userKey, params);
                case "turn/interrupt" -> threads.turnInterrupt(userKey, params);
                case "turn/read" -> threads.turnRead(userKey, params);
                case "chat/send" -> chat.send(userKey, params);
                case "chat/threads" -> chat.threads(userKey, params);
                case "chat/newThread" -> chat.newThread(userKey, params);
                case "chat/read" -> chat.read(userKey, params);
                case "chat/approve" -> chat.approve(userKey, params);
                case "chat/authToken" -> chat.authToken(userKey, params);
                case "chat/authCancel" -> chat.authCancel(userKey, params);
                case "run/tree" -> threads.runTree(userKey, params);
                case "webhook/create" -> webhooks.create(userKey, params);
                case "webhook/list" -> webhooks.list(userKey);
                case "webhook/read" -> webhooks.read(userKey, params);
                case "webhook/update" -> webhooks.update(userKey, params);
                case "webhook/delete" -> webhooks.delete(userKey, params);
                case "webhook/rotate" -> webhooks.rotate(userKey, params);
                case "webhook/messages" -> webhooks.messages(userKey, params);
                case "webhook/attempts" -> webhooks.attempts(userKey, params);
                case "webhook/replay" -> webhooks.replay(userKey, params);
                default -> throw new IllegalStateException("unrouted method " + name);
            };
        } catch (TurnRejectedException e) {
            throw new RpcException(e.reason() == TurnRejectedException.Reason.NOT_ACTIVE
                    ? RpcError.invalidField("turn_id", e.getMessage())
                    : RpcError.internal(e.getMessage()));
        } catch (ChatMessage.InvalidException e) {
            throw new RpcException(RpcError.invalidField(e.field(), e.getMessage()));
        } catch (ChatRejectedException e) {
            throw new RpcException(switch (e.reason()) {
                case NOT_FOUND -> RpcError.invalidField("thread_id", e.getMessage());
                case CHECKPOINT_NOT_FOUND -> RpcError.invalidField("content", e.getMessage());
                case MISMATCH, NO_PENDING_APPROVAL -> RpcError.invalidField("request_id", e.getMessage());
                case NO_PENDING_AUTH, AUTH_EXPIRED, INVALID_TOKEN -> RpcError.invalidField("token", e.getMessage());
                case NOT_AUTHORIZED -> RpcError.invalidField("channel", e.getMessage());
                case QUEUE_FULL, BUSY -> RpcError.internal(e.getMessage());
                default -> RpcError.invalidField("content", e.getMessage());
            });
        } catch (IdempotencyConflictException e) {
            throw new RpcException(RpcError.invalidField("idempotency_key",
                    "idempotency_key was already used with a different input"));
        }
    }
}
