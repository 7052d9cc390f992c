package dev.switchboard.rest.runs;

import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.run.RunView;
import dev.switchboard.core.thread.WorkspaceService;
import dev.switchboard.core.user.Authenticator;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.Undocumented;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorAnswer;
import dev.switchboard.rest.errors.ErrorBody;
import dev.switchboard.rest.streams.OpenStreams;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** {@code GET /v1/runs/{run_id}} and its long-poll {@code /wait}. */
@Path("/v1/runs")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class RunsResource {

    static final int MAX_WAIT_SECONDS = 300;
    static final int DEFAULT_WAIT_SECONDS = 30;

    @EJB
    RunService runs;

    @EJB
    WorkspaceService workspaces;

    @Inject
    Caller caller;

    @Inject
    Authenticator authenticator;

    @Inject
    OpenStreams streams;

    @Undocumented // only refuses: not an operation of the API
    @GET
    public String blankId() {
        throw blank();
    }

    @GET
    @Path("{run_id}")
    public String get(@PathParam("run_id") String runId) {
        String id = checkedId(runId);
        return RunJson.of(runs.find(caller.user(), id).orElseThrow(() -> notFound(id))).toString();
    }

    /**
     * The call tree of the run's delegation: one node per path with its status, timings, result and
     * calls; readable paths for operators only.
     */
    @GET
    @Path("{run_id}/tree")
    public String tree(@PathParam("run_id") String runId) {
        String id = checkedId(runId);
        return runs.tree(caller.user(), id, authenticator.isOperator(caller.user())).orElseThrow(() -> notFound(id))
                .toString();
    }

    /**
     * The run's record in its thread's workspace ({@code turn.json}: session, turn, response ids,
     * times, status, base and commit, files) with its change set as {@code changes_diff}.
     */
    @GET
    @Path("{run_id}/workspace")
    public String workspace(@PathParam("run_id") String runId) {
        String id = checkedId(runId);
        return workspaces.record(caller.user(), id).orElseThrow(() -> new ApiException(404, "workspace_not_found",
                "run " + id + " has no workspace record (no such run of yours, or its thread has no workspace)"))
                .toString();
    }

    /**
     * Answers when the run is terminal, or after {@code timeout} seconds (default 30, at most
     * 300) with its current state — either way 200 with the envelope.
     */
    @GET
    @Path("{run_id}/wait")
    public void await(@PathParam("run_id") String runId, @QueryParam("timeout") String timeout,
            @Context HttpServletRequest request, @Suspended AsyncResponse response) {
        String id = checkedId(runId);
        int seconds = (int) QueryParams.bounded(timeout, DEFAULT_WAIT_SECONDS, 0, MAX_WAIT_SECONDS, "timeout");
        CompletionStage<Optional<RunView>> end = runs.awaitTerminal(caller.user(), id, seconds * 1000L);
        AsyncContext context = streams.suspended(request); // answered by the writers that wake it, not the container's pool
        end.whenComplete((found, error) -> streams.answer(context, error != null ? ErrorAnswer.of(error).response()
                : found.isEmpty() ? ErrorBody.response(notFound(id))
                : Response.ok(RunJson.of(found.get()).toString(), MediaType.APPLICATION_JSON_TYPE).build()));
    }

    private static String checkedId(String runId) {
        String id = runId == null ? "" : runId.strip();
        if (id.isEmpty()) {
            throw blank();
        }
        return JsonBody.storable(id, "run_id");
    }

    private static ApiException blank() {
        return new ApiException(400, "invalid_run_id", "run_id must not be empty");
    }

    private static ApiException notFound(String id) {
        return new ApiException(404, "run_not_found", "run " + id + " not found");
    }
}
