package dev.switchboard.core.rpc;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.runtime.RuntimeService;
import dev.switchboard.core.thread.ThreadListing;
import dev.switchboard.core.turn.InvalidInputException;
import dev.switchboard.core.turn.TurnInput;
import dev.switchboard.core.turn.TurnItem;
import dev.switchboard.core.turn.TurnLedger;
import dev.switchboard.core.turn.TurnQueries;
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

/**
 * The {@code thread/*}, {@code turn/*} and {@code run/tree} methods ({@link RpcMethods}): a user's
 * threads (a thread key, or the runtime's default session), the turns started, steered,
 * interrupted and read on them, and a run's call tree.
 */
@ApplicationScoped
public class ThreadMethods {

    private static final int MAX_KEY_LENGTH = 512;

    @EJB
    TurnService turns;

    @EJB
    TurnQueries queries;

    @EJB
    RuntimeService runtime;

    @EJB
    RunService runs;

    @Inject
    Authenticator authenticator;

    public JsonObject threadStart(String userKey, Params params) {
        String thread = threadOrSession(userKey, params, "thread_id is required when no default session is configured");
        Instant started = runtime.startThread(userKey, thread);
        return Jsons.createObjectBuilder()
                .add("thread_id", thread)
                .add("session_id", thread)
                .add("started_at", started.toString())
                .build();
    }

    /**
     * {@code {after?, limit?, include_internal?, query?}}: a page of the user's threads by key,
     * people's and integrations' unless {@code include_internal}, only those whose key contains
     * {@code query} in any case when it is given (a search may end a page early: {@link
     * dev.switchboard.core.thread.ThreadListing}).
     */
    public JsonObject threadList(String userKey, Params params) {
        int limit = params.bounded("limit", 1, 200, 50, "limit must be between 1 and 200");
        boolean includeInternal = params.bool("include_internal", false);
        String query = params.string("query");
        if (query != null && query.length() > ThreadListing.MAX_QUERY_LENGTH) {
            throw new RpcException(RpcError.invalidField("query",
                    "query must be at most " + ThreadListing.MAX_QUERY_LENGTH + " characters"));
        }
        TurnQueries.ThreadPage page = queries.threads(userKey, params.string("after"), limit, includeInternal, query);
        JsonArrayBuilder threads = Jsons.createArrayBuilder();
        page.threads().forEach(t -> threads.add(threadJson(t)));
        return Jsons.createObjectBuilder()
                .add("threads", threads)
                .add("next_after", page.nextAfter() == null ? JsonValue.NULL : Jsons.createValue(page.nextAfter()))
                .build();
    }

    public JsonObject threadRead(String userKey, Params params) {
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

    public JsonObject turnStart(String userKey, Params params) {
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

    public JsonObject turnSteer(String userKey, Params params) {
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

    public JsonObject turnInterrupt(String userKey, Params params) {
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

    public JsonObject turnRead(String userKey, Params params) {
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
                .add("ended_at", RpcJson.time(t.endedAt()))
                .add("merged_into", t.mergedInto() == null ? JsonValue.NULL : Jsons.createValue(t.mergedInto()));
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("turn", turn);
        conversation(b, content.conversation());
        return b.build();
    }

    /** {@code run/tree}: {@code {run_id}} as {@code GET /v1/runs/{run_id}/tree}. */
    public JsonObject runTree(String userKey, Params params) {
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
                .add("kind", t.kind().wire())
                .build();
    }
}
