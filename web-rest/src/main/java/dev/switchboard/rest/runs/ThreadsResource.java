package dev.switchboard.rest.runs;

import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunPage;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.run.Transcripts;
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
import jakarta.ws.rs.DELETE;
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
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A thread's runs: {@code GET /v1/threads/{thread_key}/runs?after_seq=&limit=} lists them in lane
 * (FIFO) order, paged by per-thread sequence; {@code GET /v1/threads/{thread_key}/items} lists its
 * conversation history, paged by item sequence; {@code POST /v1/threads/{thread_key}/cancel} cancels
 * its queued and executing runs; jagc's {@code DELETE /v1/threads/{thread_key}/session} starts its
 * next run in a fresh conversation and {@code POST|DELETE /v1/threads/{thread_key}/share} make and
 * revoke read-only links to its transcript ({@link SharedTranscriptResource} serves them). Thread
 * keys may contain {@code /} (e.g. {@code event:o/r}); the query forms
 * ({@code /v1/threads/runs?thread_key=}, {@code …/items}, {@code …/cancel}, {@code …/session},
 * {@code …/share}) reach any key, also where a client escapes its slash as {@code %2F}.
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
    Transcripts transcripts;

    /** The server's address as its users reach it (behind a proxy), for the links it hands out; else the request's. */
    @Inject
    @ConfigProperty(name = "switchboard.public-url")
    Optional<String> publicUrl;

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

    /**
     * Cancels the thread's queued and executing runs: {@code {"thread_key","cancelled","cancelled_run_ids"}}
     * ({@code cancelled} as jagc's CLI reads it: whether a run was stopped). A thread the caller has
     * not made has nothing to cancel.
     */
    @POST
    @Path("{thread_key: .+}/cancel")
    public String cancel(@PathParam("thread_key") String threadKey) {
        String key = checkedKey(threadKey);
        List<String> cancelled = runs.cancelThread(caller.user(), key).orElse(List.of());
        JsonArrayBuilder ids = Jsons.createArrayBuilder();
        cancelled.forEach(ids::add);
        return Jsons.createObjectBuilder().add("thread_key", key).add("cancelled", !cancelled.isEmpty())
                .add("cancelled_run_ids", ids).build().toString();
    }

    /** The query form, {@code DELETE /v1/threads/session?thread_key=}. */
    @DELETE
    @Path("session")
    public String resetByQuery(@QueryParam("thread_key") String threadKey) {
        return reset(threadKey);
    }

    /**
     * jagc's {@code new}: the thread's next run starts a fresh conversation (its engine is given
     * nothing from before); a run it executes is cancelled, what is queued stays, nothing stored is
     * deleted. {@code {"thread_key","reset":true,"cancelled_run_ids"}}.
     */
    @DELETE
    @Path("{thread_key: .+}/session")
    public String reset(@PathParam("thread_key") String threadKey) {
        String key = checkedKey(threadKey);
        JsonArrayBuilder ids = Jsons.createArrayBuilder();
        runs.resetConversation(caller.user(), key).forEach(ids::add);
        return Jsons.createObjectBuilder().add("thread_key", key).add("reset", true).add("cancelled_run_ids", ids)
                .build().toString();
    }

    /** The query form, {@code POST /v1/threads/share?thread_key=}. */
    @POST
    @Path("share")
    public String shareByQuery(@QueryParam("thread_key") String threadKey, @Context UriInfo uri) {
        return share(threadKey, uri);
    }

    /**
     * jagc's {@code share}: a new read-only, unguessable link to the thread's transcript as it is
     * now, served by this server ({@code GET /shared/{token}}, no token needed to open it):
     * {@code {"thread_key","share_url","gist_url"}} — {@code gist_url} is the same link (no gist is
     * made; jagc's CLI prints both). Links are revoked with {@code DELETE} on the same path.
     */
    @POST
    @Path("{thread_key: .+}/share")
    public String share(@PathParam("thread_key") String threadKey, @Context UriInfo uri) {
        String key = checkedKey(threadKey);
        String token = transcripts.share(caller.user(), key).orElseThrow(() -> notFound(key));
        String url = SharedTranscriptResource.url(publicUrl.orElse(uri.getBaseUri().toString()), token);
        return Jsons.createObjectBuilder().add("thread_key", key).add("share_url", url).add("gist_url", url)
                .build().toString();
    }

    /** The query form, {@code DELETE /v1/threads/share?thread_key=}. */
    @DELETE
    @Path("share")
    public String revokeByQuery(@QueryParam("thread_key") String threadKey) {
        return revoke(threadKey);
    }

    /** Revokes every link to the thread's transcript: {@code {"thread_key","revoked":n}}. */
    @DELETE
    @Path("{thread_key: .+}/share")
    public String revoke(@PathParam("thread_key") String threadKey) {
        String key = checkedKey(threadKey);
        int revoked = transcripts.revoke(caller.user(), key).orElseThrow(() -> notFound(key));
        return Jsons.createObjectBuilder().add("thread_key", key).add("revoked", revoked).build().toString();
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
