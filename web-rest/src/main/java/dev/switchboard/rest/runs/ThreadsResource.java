package dev.switchboard.rest.runs;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunPage;
import dev.switchboard.core.run.RunService;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * A thread's runs: {@code GET /v1/threads/{thread_key}/runs?after_seq=&limit=} lists them in lane
 * (FIFO) order, paged by per-thread sequence; {@code POST /v1/threads/{thread_key}/cancel} cancels
 * its queued and executing runs. Thread keys may contain {@code /} (e.g. {@code event:o/r}); the
 * query forms {@code /v1/threads/runs?thread_key=} and {@code /v1/threads/cancel?thread_key=} reach
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

    @Inject
    Caller caller;

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
        String key = checkedKey(threadKey);
        long after = QueryParams.bounded(afterSeq, 0, 0, Long.MAX_VALUE, "after_seq");
        int size = (int) QueryParams.bounded(limit, DEFAULT_LIMIT, 1, MAX_LIMIT, "limit");
        RunPage page = runs.page(caller.user(), key, after, size)
                .orElseThrow(() -> notFound(key));
        JsonArrayBuilder items = Jsons.createArrayBuilder();
        page.runs().forEach(r -> items.add(RunJson.of(r)));
        var body = Jsons.createObjectBuilder().add("thread_key", key).add("runs", items);
        if (page.nextAfterSeq() == null) {
            body.addNull("next_after_seq");
        } else {
            body.add("next_after_seq", page.nextAfterSeq());
        }
        return body.build().toString();
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
