package dev.switchboard.rest.runs;

import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunPage;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.engine.ModelChoice;
import dev.switchboard.core.thread.ThreadRuntimes;
import dev.switchboard.core.thread.WorkspaceService;
import dev.switchboard.core.turn.HistoryPage;
import dev.switchboard.core.turn.TurnService;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A thread's runs: {@code GET /v1/threads/{thread_key}/runs?after_seq=&limit=} lists them in lane
 * (FIFO) order, paged by per-thread sequence; {@code GET /v1/threads/{thread_key}/items} lists its
 * conversation history, paged by item sequence; {@code POST /v1/threads/{thread_key}/cancel} cancels
 * its queued and executing runs. Thread keys may contain {@code /} (e.g. {@code event:o/r}); the
 * query forms {@code /v1/threads/runs?thread_key=}, {@code /v1/threads/items?thread_key=} and
 * {@code /v1/threads/cancel?thread_key=} reach
 * any key, also where a client escapes its slash as {@code %2F}.
 */
@Path("/v1/threads")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class ThreadsResource {

    static final int MAX_LIMIT = 200;
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_THREAD_KEY = 512;

    @EJB
    RunService runs;

    @EJB
    TurnService turns;

    @EJB
    ThreadRuntimes runtimes;

    @EJB
    WorkspaceService workspaces;

    @Inject
    Caller caller;

    @Inject
    @ConfigProperty(name = "switchboard.http.max-body-bytes", defaultValue = "1048576")
    long maxBodyBytes;

    /** The query form, {@code GET /v1/threads/runs?thread_key=}, reaches every key whatever it contains. */
    @GET
    @Path("runs")
    public String listByQuery(@QueryParam("thread_key") String threadKey,
            @QueryParam("after_seq") String afterSeq, @QueryParam("limit") String limit) {
        return list(threadKey, afterSeq, limit);
    }

    @GET
    @Path("{thread_key: .+}/runs")
    public String list(@PathParam("thread_key") String threadKey,
            @QueryParam("after_seq") String afterSeq, @QueryParam("limit") String limit) {
        Paging paging = Paging.of(threadKey, afterSeq, limit);
        RunPage page = runs.page(caller.user(), paging.key(), paging.afterSeq(), paging.limit())
                .orElseThrow(() -> notFound(paging.key()));
        JsonArrayBuilder entries = Jsons.createArrayBuilder();
        page.runs().forEach(r -> entries.add(RunJson.of(r)));
        return paging.body("runs", entries, page.nextAfterSeq());
    }

    /** The query form, {@code GET /v1/threads/items?thread_key=}. */
    @GET
    @Path("items")
    public String itemsByQuery(@QueryParam("thread_key") String threadKey,
            @QueryParam("after_seq") String afterSeq, @QueryParam("limit") String limit) {
        return items(threadKey, afterSeq, limit);
    }

    /** The thread's conversation history, oldest first, paged by {@code seq}. */
    @GET
    @Path("{thread_key: .+}/items")
    public String items(@PathParam("thread_key") String threadKey,
            @QueryParam("after_seq") String afterSeq, @QueryParam("limit") String limit) {
        Paging paging = Paging.of(threadKey, afterSeq, limit);
        HistoryPage page = turns.history(caller.user(), paging.key(), paging.afterSeq(), paging.limit())
                .orElseThrow(() -> notFound(paging.key()));
        JsonArrayBuilder entries = Jsons.createArrayBuilder();
        for (StoredItem item : page.items()) {
            var entry = Jsons.createObjectBuilder().add("seq", item.seq()).add("run_id", item.runId());
            if (item.turnId() == null) {
                entry.addNull("turn_id");
            } else {
                entry.add("turn_id", item.turnId());
            }
            entries.add(entry.add("created_at", Instant.ofEpochMilli(item.createdAt()).toString()).add("item", item.item()));
        }
        return paging.body("items", entries, page.nextAfterSeq());
    }

    /** The query form, {@code POST /v1/threads/cancel?thread_key=}. */
    @POST
    @Path("cancel")
    public String cancelByQuery(@QueryParam("thread_key") String threadKey) {
        return cancel(threadKey);
    }

    @POST
    @Path("{thread_key: .+}/cancel")
    public String cancel(@PathParam("thread_key") String threadKey) {
        String key = checkedKey(threadKey);
        List<String> cancelled = runs.cancelThread(caller.user(), key).orElseThrow(() -> notFound(key));
        JsonArrayBuilder ids = Jsons.createArrayBuilder();
        cancelled.forEach(ids::add);
        return Jsons.createObjectBuilder().add("thread_key", key).add("cancelled_run_ids", ids).build().toString();
    }

    /** jagc's thread runtime: the engine (provider), model and thinking level its turns run with. */
    @GET
    @Path("{thread_key: .+}/runtime")
    public String runtime(@PathParam("thread_key") String threadKey) {
        return RuntimeJson.of(runtimes.view(caller.user(), checkedKey(threadKey)));
    }

    /**
     * {@code {"provider":…,"model_id":…}}: the thread's turns run with that engine and model from now on; a
     * model the instance does not offer is refused by {@link RuntimeChoiceMapper}.
     */
    @PUT
    @Path("{thread_key: .+}/model")
    public String model(@PathParam("thread_key") String threadKey, @Context HttpHeaders headers, InputStream body) {
        String key = checkedKey(threadKey);
        JsonValue json = read(headers, body, "invalid_model_payload");
        String provider = RuntimeJson.member(json, "provider", "invalid_model_payload");
        String modelId = RuntimeJson.member(json, "model_id", "invalid_model_payload");
        return RuntimeJson.of(runtimes.chooseModel(caller.user(), key, provider, modelId));
    }

    /** {@code {"thinking_level":…}}: one of off, minimal, low, medium, high, xhigh. */
    @PUT
    @Path("{thread_key: .+}/thinking")
    public String thinking(@PathParam("thread_key") String threadKey, @Context HttpHeaders headers, InputStream body) {
        String key = checkedKey(threadKey);
        String level = RuntimeJson.member(read(headers, body, "invalid_thinking_payload"), "thinking_level",
                "invalid_thinking_payload");
        if (!ModelChoice.THINKING_LEVELS.contains(level)) {
            throw new ApiException(400, "invalid_thinking_payload", "thinking_level must be one of: "
                    + String.join(", ", ModelChoice.THINKING_LEVELS));
        }
        return RuntimeJson.of(runtimes.chooseThinking(caller.user(), key, level));
    }

    /** The thread's workspace: whether it has one, and its line's head commit (null at its start). */
    @GET
    @Path("{thread_key: .+}/workspace")
    public String workspace(@PathParam("thread_key") String threadKey) {
        return workspaces.view(caller.user(), checkedKey(threadKey)).toJson().toString();
    }

    /** Gives the thread a workspace: its turns from now on each work in a worktree of it (no body). */
    @PUT
    @Path("{thread_key: .+}/workspace")
    public String enableWorkspace(@PathParam("thread_key") String threadKey) {
        return workspaces.enable(caller.user(), checkedKey(threadKey)).toJson().toString();
    }

    /** A JSON body; a missing or malformed one is {@code code} (jagc's payload error). */
    private JsonValue read(HttpHeaders headers, InputStream body, String code) {
        JsonBody.Parsed parsed = JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body,
                maxBodyBytes);
        if (parsed.value() == null) {
            throw new ApiException(400, code, "body must be a JSON object");
        }
        return parsed.value();
    }

    /** A page request on a thread: its checked key, {@code after_seq} (default 0) and {@code limit} (1–200, default 50). */
    private record Paging(String key, long afterSeq, int limit) {

        static Paging of(String threadKey, String afterSeq, String limit) {
            return new Paging(checkedKey(threadKey), QueryParams.bounded(afterSeq, 0, 0, Long.MAX_VALUE, "after_seq"),
                    (int) QueryParams.bounded(limit, DEFAULT_LIMIT, 1, MAX_LIMIT, "limit"));
        }

        /** {@code {"thread_key":…, <field>:[…], "next_after_seq":…|null}}. */
        String body(String field, JsonArrayBuilder entries, Long nextAfterSeq) {
            var body = Jsons.createObjectBuilder().add("thread_key", key).add(field, entries);
            if (nextAfterSeq == null) {
                body.addNull("next_after_seq");
            } else {
                body.add("next_after_seq", nextAfterSeq);
            }
            return body.build().toString();
        }
    }

    private static String checkedKey(String threadKey) {
        String key = threadKey == null ? "" : threadKey.strip();
        if (key.isEmpty()) {
            throw new ApiException(400, "invalid_thread_key", "thread_key must not be empty");
        }
        if (key.length() > MAX_THREAD_KEY) {
            throw new ApiException(400, "invalid_thread_key", "thread_key must contain at most " + MAX_THREAD_KEY
                    + " characters");
        }
        return JsonBody.storable(key, "thread_key");
    }

    private static ApiException notFound(String key) {
        return new ApiException(404, "thread_not_found", "thread " + key + " not found");
    }
}
