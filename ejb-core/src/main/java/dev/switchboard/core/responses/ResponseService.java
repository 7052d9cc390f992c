package dev.switchboard.core.responses;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.engine.EngineSelector;
import dev.switchboard.core.history.ResponseRecords;
import dev.switchboard.core.history.ResponseRecords.ResponseRecord;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.run.RunView;
import dev.switchboard.core.turn.TurnService;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * {@code POST /responses} as durable runs. A response is stored — its normalised request, the
 * conversation it continues, its new input — and then run in its chain's thread (a new chain gets
 * a thread of its own, {@code responses/<id>}; a continuation runs in its previous response's),
 * so it is serialised with its chain, survives a crash, and shows in the thread's notifications
 * like every run. A continuation resolves previous input + output + new input when it is made, so
 * two continuations of one response fork the chain. Reads build the response object from the
 * record and the run.
 */
@ApplicationScoped
public class ResponseService {

    @EJB
    RunService runs;

    @EJB
    TurnService turns;

    @EJB
    ResponseLedger records;

    @Inject
    EngineSelector engines;

    @Inject
    InstanceClock clock;

    /** A stored response and its run as last read. */
    public record Response(ResponseRecord record, RunView run) {

        public JsonObject object() {
            return ResponseObjects.response(record.responseId(), record.createdAt(), record.previousResponseId(),
                    record.request(), state());
        }

        public ResponseObjects.State state() {
            return ResponseObjects.state(record.responseId(), run.state(), run.outputJson(), run.errorCode(),
                    run.errorMessage(), run.finishedAt());
        }

        public String turnId() {
            return run.turnId();
        }
    }

    /**
     * Stores the response and queues its run; the answer holds the run as stored (queued or already
     * claimed).
     *
     * @throws ResponseError 404 for an unknown previous response (or another user's, or one not
     *         stored), 400 for one still in progress
     */
    public Response create(String userKey, ResponseRequest request) {
        String runId = UUID.randomUUID().toString();
        String responseId = "resp_" + runId.replace("-", "");
        JsonArray prior;
        String threadKey;
        String previousId = request.previousResponseId().orElse(null);
        if (previousId != null) {
            Response previous = find(userKey, previousId)
                    .orElseThrow(() -> ResponseError.notFound(previousId, "previous_response_id"));
            ResponseObjects.State state = previous.state();
            if (!state.isTerminal()) {
                throw new ResponseError(400, "invalid_request", "previous_response_in_progress", "previous_response_id",
                        "Previous response with id '" + previousId + "' is still in progress.");
            }
            JsonArrayBuilder chain = Jsons.createArrayBuilder();
            previous.record().prior().forEach(chain::add);
            previous.record().input().forEach(chain::add);
            state.output().forEach(chain::add);
            prior = chain.build();
            threadKey = previous.record().threadKey();
        } else {
            prior = Jsons.createArrayBuilder().build();
            threadKey = "responses/" + responseId;
        }
        JsonObject echo = request.echo().get("model") instanceof JsonString ? request.echo()
                : Jsons.createObjectBuilder(request.echo()).add("model", engines.engine().defaultModel()).build();
        ResponseRecord record = new ResponseRecord(responseId, runId, userKey, threadKey, previousId, request.store(), echo,
                prior, ResponseObjects.array(request.input()), clock.millis());
        records.insert(record);
        RunView run = runs.ingest(new MessageCommand(userKey, ResponseRecords.SOURCE, threadKey, null,
                runText(request.input()), "followUp", null, runId)).run();
        return new Response(record, run);
    }

    /** The response as it stands; empty when the user has no stored response of that id. */
    public Optional<Response> find(String userKey, String responseId) {
        return records.find(responseId).filter(r -> r.userKey().equals(userKey))
                .flatMap(r -> runs.find(userKey, r.runId()).map(run -> new Response(r, run)));
    }

    /** Completes with the response once its run ended, or as it stands when {@code timeoutMs} passes first. */
    public CompletionStage<Response> awaitEnd(Response response, long timeoutMs) {
        return runs.awaitTerminal(response.record().userKey(), response.record().runId(), timeoutMs)
                .thenApply(run -> new Response(response.record(), run.orElse(response.run())));
    }

    /** A response that was not to be stored is forgotten once it has been answered. */
    public void answered(Response response) {
        if (!response.record().stored()) {
            records.forget(response.record());
        }
    }

    /** Cancels the response's run if it has not ended; returns the response as it then stands. */
    public Optional<Response> cancel(String userKey, String responseId) {
        Optional<Response> response = find(userKey, responseId);
        if (response.isPresent() && !response.get().state().isTerminal() && response.get().turnId() != null) {
            turns.interrupt(userKey, response.get().turnId(), "cancelled through POST /responses/" + responseId + "/cancel");
            return find(userKey, responseId);
        }
        return response;
    }

    /** What the run records as its text: the input's messages and tool outputs, one per line. */
    static String runText(List<JsonObject> input) {
        return input.stream().map(item -> "function_call_output".equals(item.getString("type", ""))
                        ? ResponseObjects.text(item.get("output"))
                        : ClientCall.text(item))
                .filter(t -> !t.isEmpty()).collect(Collectors.joining("\n"));
    }
}
