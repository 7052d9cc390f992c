package dev.switchboard.core.rpc;

import dev.switchboard.core.chat.ChatAnswer;
import dev.switchboard.core.chat.ChatJson;
import dev.switchboard.core.chat.ChatMessage;
import dev.switchboard.core.chat.ChatRejectedException;
import dev.switchboard.core.chat.ChatService;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.InstanceBeacon;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.runtime.LogJournal;
import dev.switchboard.core.runtime.RuntimeService;
import dev.switchboard.core.runtime.RuntimeStatus;
import dev.switchboard.core.turn.InvalidInputException;
import dev.switchboard.core.turn.TurnInput;
import dev.switchboard.core.turn.TurnItem;
import dev.switchboard.core.turn.TurnLedger;
import dev.switchboard.core.turn.TurnQueries;
import dev.switchboard.core.turn.TurnRejectedException;
import dev.switchboard.core.turn.TurnService;
import dev.switchboard.core.turn.TurnView;
import dev.switchboard.core.user.Authenticator;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

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
            "server/instances",
            "thread/start", "thread/list", "thread/read", "turn/start", "turn/steer", "turn/interrupt", "turn/read",
            "chat/send", "chat/threads", "chat/newThread", "chat/read", "chat/approve",
            "chat/authToken", "chat/authCancel", "run/tree");

    private static final int MAX_KEY_LENGTH = 512;

    @EJB
    TurnService turns;

    @EJB
    TurnQueries queries;

    @EJB
    ChatService chat;

    @EJB
    RuntimeService runtime;

    @EJB
    RunService runs;

    @Inject
    Authenticator authenticator;

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
                case "server/status" -> status(userKey);
                case "server/pause" -> pause(userKey);
                case "server/resume" -> resume(userKey);
                case "server/logStream" -> logStream(userKey, params);
                case "server/instances" -> instances();
                case "thread/start" -> threadStart(userKey, params);
                case "thread/list" -> threadList(userKey, params);
                case "thread/read" -> threadRead(userKey, params);
                case "turn/start" -> turnStart(userKey, params);
                case "turn/steer" -> turnSteer(userKey, params);
                case "turn/interrupt" -> turnInterrupt(userKey, params);
                case "turn/read" -> turnRead(userKey, params);
                case "chat/send" -> chatSend(userKey, params);
                case "chat/threads" -> ChatJson.threads(chat.threads(userKey,
                        params.bounded("limit", 1, ChatService.MAX_THREADS, 50, "limit must be 1 to 500")));
                case "chat/newThread" -> ChatJson.thread(chat.newThread(userKey, ChatMessage.channel(params.object())));
                case "chat/read" -> chatRead(userKey, params);
                case "chat/approve" -> chatApprove(userKey, params);
                case "chat/authToken" -> ChatJson.reply(chat.giveToken(userKey, chatThread(params),
                        ChatMessage.token(params.object())));
                case "chat/authCancel" -> ChatJson.reply(chat.cancelAuth(userKey, chatThread(params)));
                case "run/tree" -> runTree(userKey, params);
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

    /** {@code chat/send}: {@code {content, channel?, thread_id?}} as {@code POST /v1/chat/messages}. */
    private JsonObject chatSend(String userKey, Params params) {
        ChatMessage message = ChatMessage.of(params.object());
        return ChatJson.reply(chat.send(userKey, message.channel(), message.threadId(), message.content()));
    }

    /** {@code chat/approve}: {@code {thread_id, request_id?, action, channel?}} as {@code POST /v1/chat/threads/{id}/approval}. */
    private JsonObject chatApprove(String userKey, Params params) {
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
    private JsonObject chatRead(String userKey, Params params) {
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

    private JsonObject status(String userKey) {
        RuntimeStatus s = runtime.status(userKey);
        return Jsons.createObjectBuilder()
                .add("state", s.paused() ? "paused" : "running")
                .add("events_processed", s.eventsProcessed())
                .add("last_event_at", time(s.lastEventAt()))
                .add("session_id", s.sessionId())
                .add("paused_at", time(s.pausedAt()))
                .add("resumed_at", time(s.resumedAt()))
                .build();
    }

    private JsonObject pause(String userKey) {
        if (!runtime.pause(userKey)) {
            throw new RpcException(RpcError.internal("failed to pause: already paused"));
        }
        return success("Paused event processing");
    }

    private JsonObject resume(String userKey) {
        return success(runtime.resume(userKey) ? "Resumed event processing" : "Runtime already running");
    }

    /** The cluster's instances: every start of every instance the database heard of in the last day. */
    private JsonObject instances() {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        for (InstanceBeacon.Instance i : runtime.instances()) {
            list.add(Jsons.createObjectBuilder().add("instance", i.instanceId()).add("owner", i.owner())
                    .add("state", i.state()).add("executing_runs", i.executingRuns())
                    .add("started_at", Instant.ofEpochMilli(i.startedAt()).toString())
                    .add("heartbeat_at", Instant.ofEpochMilli(i.heartbeatAt()).toString())
                    .add("heartbeat_age_ms", i.ageMs())
                    .add("stopped_at", i.stoppedAt() == null ? JsonValue.NULL
                            : Jsons.createValue(Instant.ofEpochMilli(i.stoppedAt()).toString())));
        }
        return Jsons.createObjectBuilder().add("instances", list).build();
    }

    /** The caller's own journal entries; an operator's view is the whole server's. */
    private JsonObject logStream(String userKey, Params params) {
        int maxLines = params.bounded("max_lines", 1, 10_000, 100, "max_lines must be between 1 and 10000");
        long from = params.integer("from_position", 0);
        if (from < 0) {
            throw new RpcException(RpcError.invalidField("from_position", "from_position must not be negative"));
        }
        JsonArrayBuilder logs = Jsons.createArrayBuilder();
        for (LogJournal.Entry e : runtime.logs(userKey, authenticator.isOperator(userKey),
                (int) Math.min(Integer.MAX_VALUE, from), maxLines)) {
            logs.add(Jsons.createObjectBuilder().add("level", e.level()).add("time", e.time().toString())
                    .add("message", e.message()).add("instance", e.instance()));
        }
        return Jsons.createObjectBuilder()
                .add("stream_id", "stream_" + Instant.now().getEpochSecond())
                .add("logs", logs)
                .build();
    }

    private JsonObject threadStart(String userKey, Params params) {
        String thread = threadOrSession(userKey, params, "thread_id is required when no default session is configured");
        Instant started = runtime.startThread(userKey, thread);
        return Jsons.createObjectBuilder()
                .add("thread_id", thread)
                .add("session_id", thread)
                .add("started_at", started.toString())
                .build();
    }

    private JsonObject threadList(String userKey, Params params) {
        int limit = params.bounded("limit", 1, 200, 50, "limit must be between 1 and 200");
        TurnQueries.ThreadPage page = queries.threads(userKey, params.string("after"), limit);
        JsonArrayBuilder threads = Jsons.createArrayBuilder();
        page.threads().forEach(t -> threads.add(threadJson(t)));
        return Jsons.createObjectBuilder()
                .add("threads", threads)
                .add("next_after", page.nextAfter() == null ? JsonValue.NULL : Jsons.createValue(page.nextAfter()))
                .build();
    }

    private JsonObject threadRead(String userKey, Params params) {
        String thread = params.trimmed("thread_id");
        if (thread == null) {
            throw new RpcException(RpcError.invalidField("thread_id", "thread_id is required"));
        }
        int limit = params.bounded("limit", 1, 200, 50, "limit must be between 1 and 200");
        long afterSeq = params.integer("after_seq", 0);
        if (afterSeq < 0) {
            throw new RpcException(RpcError.invalidField("after_seq", "after_seq must not be negative"));
        }
        TurnQueries.ThreadContent content = queries.thread(userKey, thread, afterSeq, limit)
                .orElseThrow(() -> new RpcException(RpcError.invalidField("thread_id", "thread not found")));
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("thread", threadJson(content.thread()));
        conversation(b, content.page());
        return b.add("next_after_seq",
                content.nextAfterSeq() == null ? JsonValue.NULL : Jsons.createValue(content.nextAfterSeq())).build();
    }

    private JsonObject turnStart(String userKey, Params params) {
        String thread = threadOrSession(userKey, params, "thread_id is required");
        TurnInput input = input(params);
        String key = params.string("idempotency_key");
        if (key != null && (key.isBlank() || key.length() > MAX_KEY_LENGTH)) {
            throw new RpcException(RpcError.invalidField("idempotency_key",
                    "idempotency_key must be 1 to " + MAX_KEY_LENGTH + " characters"));
        }
        TurnLedger.Outcome outcome = turns.start(userKey, thread, input, key);
        TurnView turn = outcome.turn();
        return Jsons.createObjectBuilder()
                .add("turn_id", turn.turnId())
                .add("state", turn.state())
                .add("started_at", Lifecycle.time(turn.startedAt()))
                .build();
    }

    private JsonObject turnSteer(String userKey, Params params) {
        String turnId = params.trimmed("turn_id");
        if (turnId == null) {
            throw new RpcException(RpcError.invalidField("turn_id", "turn_id is required"));
        }
        TurnInput input = input(params);
        TurnLedger.Outcome outcome = turns.steer(userKey, turnId, input);
        return Jsons.createObjectBuilder()
                .add("turn_id", outcome.turn().turnId())
                .add("state", "active")
                .add("accepted_items", outcome.acceptedItems())
                .add("accepted_at", Instant.now().toString())
                .build();
    }

    private JsonObject turnInterrupt(String userKey, Params params) {
        String turnId = params.trimmed("turn_id");
        if (turnId == null && params.string("turn_id") != null) {
            // Blank is a caller's mistake, not "no turn": without one the runtime would be paused.
            throw new RpcException(RpcError.invalidField("turn_id", "turn_id must not be empty"));
        }
        String reason = params.trimmed("reason");
        String message = reason == null ? "Turn interrupted" : "Turn interrupted: " + reason;
        String id;
        String state;
        if (turnId == null) {
            id = turns.interruptRuntime(userKey, message);
            state = "interrupted";
        } else {
            id = turns.interrupt(userKey, turnId, message).turn().turnId();
            state = "cancel_requested";
        }
        return Jsons.createObjectBuilder()
                .add("turn_id", id)
                .add("state", state)
                .add("interrupted_at", Instant.now().toString())
                .add("message", message)
                .build();
    }

    private JsonObject turnRead(String userKey, Params params) {
        String turnId = params.trimmed("turn_id");
        if (turnId == null) {
            throw new RpcException(RpcError.invalidField("turn_id", "turn_id is required"));
        }
        TurnQueries.TurnContent content = queries.turn(userKey, turnId)
                .orElseThrow(() -> new RpcException(RpcError.invalidField("turn_id", "turn not found")));
        TurnView t = content.turn();
        JsonObjectBuilder turn = Jsons.createObjectBuilder()
                .add("turn_id", t.turnId())
                .add("thread_id", t.threadKey())
                .add("state", t.state())
                .add("status", t.outcome() == null ? JsonValue.NULL : Jsons.createValue(t.outcome()))
                .add("message", t.message() == null ? JsonValue.NULL : Jsons.createValue(t.message()))
                .add("started_at", Lifecycle.time(t.startedAt()))
                .add("ended_at", time(t.endedAt()))
                .add("merged_into", t.mergedInto() == null ? JsonValue.NULL : Jsons.createValue(t.mergedInto()));
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("turn", turn);
        conversation(b, content.conversation());
        return b.build();
    }

    /** {@code run/tree}: {@code {run_id}} as {@code GET /v1/runs/{run_id}/tree}. */
    private JsonObject runTree(String userKey, Params params) {
        String runId = params.trimmed("run_id");
        if (runId == null) {
            throw new RpcException(RpcError.invalidField("run_id", "run_id is required"));
        }
        return runs.tree(userKey, runId, authenticator.isOperator(userKey))
                .orElseThrow(() -> new RpcException(RpcError.invalidField("run_id", "run not found")));
    }

    private String threadOrSession(String userKey, Params params, String missingReason) {
        String thread = params.trimmed("thread_id");
        if (thread == null) {
            thread = runtime.status(userKey).sessionId();
        }
        if (thread == null || thread.isEmpty()) {
            throw new RpcException(RpcError.invalidField("thread_id", missingReason));
        }
        if (thread.length() > MAX_KEY_LENGTH) {
            throw new RpcException(RpcError.invalidField("thread_id",
                    "thread_id must be at most " + MAX_KEY_LENGTH + " characters"));
        }
        return thread;
    }

    private static TurnInput input(Params params) {
        try {
            return TurnInput.parse(params.raw("input"));
        } catch (InvalidInputException e) {
            throw new RpcException(RpcError.invalidField(e.field(), e.getMessage()));
        } catch (IllegalArgumentException e) {
            throw new RpcException(RpcError.undecodable(e.getMessage()));
        }
    }

    private static void conversation(JsonObjectBuilder b, TurnQueries.Conversation conversation) {
        JsonArrayBuilder runs = Jsons.createArrayBuilder();
        conversation.runs().forEach(r -> runs.add(RunJson.of(r)));
        JsonArrayBuilder items = Jsons.createArrayBuilder();
        for (TurnItem item : conversation.items()) {
            items.add(Jsons.createObjectBuilder()
                    .add("item_id", item.itemId())
                    .add("run_id", item.runId())
                    .add("turn_id", item.turnId() == null ? JsonValue.NULL : Jsons.createValue(item.turnId()))
                    .add("role", item.role())
                    .add("status", item.status())
                    .add("content", item.content()));
        }
        b.add("runs", runs).add("items", items);
    }

    private static JsonObject threadJson(TurnQueries.ThreadSummary t) {
        return Jsons.createObjectBuilder()
                .add("thread_id", t.threadKey())
                .add("created_at", Lifecycle.time(t.createdAt()))
                .add("active_turns", t.activeTurns())
                .build();
    }

    private static JsonObject success(String message) {
        return Jsons.createObjectBuilder().add("success", true).add("message", message).build();
    }

    private static JsonValue time(Long epochMs) {
        return epochMs == null ? JsonValue.NULL : Jsons.createValue(Lifecycle.time(epochMs));
    }
}
