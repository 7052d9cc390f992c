package dev.switchboard.core.responses;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.engine.EngineSelector;
import dev.switchboard.core.history.ResponseRecords;
import dev.switchboard.core.history.ResponseRecord;
import dev.switchboard.core.history.RunTextPart;
import dev.switchboard.core.history.RunTexts;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.QueueFullException;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.run.RunView;
import dev.switchboard.core.thread.ThreadKinds;
import dev.switchboard.core.turn.TurnRejectedException;
import dev.switchboard.core.turn.TurnService;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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

    @EJB
    CompactionKeys compactionKeys;

    @Inject
    InstanceClock clock;

    @Inject
    RunTexts texts;

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
     * What a new response continues: the thread of its chain and the conversation before its input
     * (the previous response's prior, input and output).
     */
    public record Continuation(String previousResponseId, String threadKey, JsonArray prior) {

        /** The continuation of a response that has ended (one that did not complete adds no output). */
        public static Continuation after(Response ended) {
            JsonArrayBuilder chain = Jsons.createArrayBuilder();
            ended.record().prior().forEach(chain::add);
            ended.record().input().forEach(chain::add);
            if ("completed".equals(ended.state().status())) {
                ResponseObjects.conversationItems(ended.record().responseId(), ended.run().outputJson()).forEach(chain::add);
            }
            return new Continuation(ended.record().responseId(), ended.record().threadKey(), chain.build());
        }
    }

    /**
     * Stores the response and queues its run; the answer holds the run as stored (queued or already
     * claimed).
     *
     * @throws ResponseError 404 for an unknown previous response (or another user's, or one not
     *         stored), 400 for one still in progress, 400 for a compaction item this server did not make
     */
    public Response create(String userKey, ResponseRequest request) {
        return create(userKey, request, continuation(userKey, request.previousResponseId()));
    }

    /** As {@link #create(String, ResponseRequest)}, continuing what the caller resolved (a connection's cache). */
    public Response create(String userKey, ResponseRequest request, Optional<Continuation> continuation) {
        List<JsonObject> input = Compactions.expand(request.input(), sealed -> compactionKeys.ring().open(userKey, sealed));
        answersOnlyCallsMade(continuation.map(c -> c.prior().getValuesAs(JsonObject.class)).orElse(List.of()), input);
        JsonObject echo = request.echo().get("model") instanceof JsonString ? request.echo()
                : Jsons.createObjectBuilder(request.echo()).add("model", engines.engine().defaultModel()).build();
        return start(userKey, echo, continuation, input);
    }

    /**
     * Starts compacting a conversation (spec §10): the engine summarises the transcript of the
     * previous response's conversation and the input (either may be absent, not both), in a run of
     * its own that is not stored; {@link #compaction} makes the answer once it ended.
     *
     * @throws ResponseError 400 without {@code model} or with nothing to compact, as {@link #create}
     *         for the previous response
     */
    public Response compact(String userKey, ResponseRequest request) {
        if (!(request.echo().get("model") instanceof JsonString)) {
            throw ResponseError.invalid("model", "model is required to compact a conversation");
        }
        Optional<Continuation> previous = continuation(userKey, request.previousResponseId());
        List<JsonObject> conversation = new ArrayList<>();
        previous.ifPresent(p -> conversation.addAll(p.prior().getValuesAs(JsonObject.class)));
        conversation.addAll(Compactions.expand(request.input(), sealed -> compactionKeys.ring().open(userKey, sealed)));
        if (Compactions.transcript(conversation).isEmpty()) {
            throw ResponseError.invalid("input", "there is nothing to compact: give input, previous_response_id or both");
        }
        JsonObject echo = Jsons.createObjectBuilder(request.echo()).add("instructions", Compactions.INSTRUCTIONS)
                .add("tools", JsonValue.EMPTY_JSON_ARRAY).add("tool_choice", "none").add("store", false)
                .add("background", false).build();
        return start(userKey, echo, Optional.empty(),
                List.of(ResponseObjects.inputMessage("user", Compactions.transcript(conversation))));
    }

    /**
     * The answer to a compaction whose run ended: {@code response.compaction} with the summary
     * sealed in its compaction item.
     *
     * @throws ResponseError 500 {@code model_error} when the run did not complete
     */
    public JsonObject compaction(Response ended) {
        answered(ended);
        ResponseObjects.State state = ended.state();
        if (!"completed".equals(state.status())) {
            String why = state.error() instanceof JsonObject error ? error.getString("message", state.status())
                    : "the compaction is " + state.status();
            throw new ResponseError(500, "model_error", "model_error", "", why);
        }
        String summary = state.output().stream().filter(item -> "message".equals(item.getString("type", "")))
                .map(ClientCall::text).collect(Collectors.joining("\n"));
        return Compactions.result(ended.record().responseId(), ended.record().createdAt(),
                compactionKeys.ring().seal(ended.record().userKey(), Compactions.summaryItems(summary)), state.usage());
    }

    private Optional<Continuation> continuation(String userKey, Optional<String> previousResponseId) {
        if (previousResponseId.isEmpty()) {
            return Optional.empty();
        }
        String previousId = previousResponseId.get();
        Response previous = find(userKey, previousId).orElseThrow(() -> ResponseError.notFound(previousId, "previous_response_id"));
        if (!previous.state().isTerminal()) {
            throw new ResponseError(400, "invalid_request", "previous_response_in_progress", "previous_response_id",
                    "Previous response with id '" + previousId + "' is still in progress.");
        }
        return Optional.of(Continuation.after(previous));
    }

    private Response start(String userKey, JsonObject echo, Optional<Continuation> continuation, List<JsonObject> input) {
        String runId = UUID.randomUUID().toString();
        String responseId = "resp_" + runId.replace("-", "");
        String threadKey = continuation.map(Continuation::threadKey).orElse(ThreadKinds.RESPONSES_PREFIX + responseId);
        boolean store = echo.getBoolean("store", true);
        ResponseRecord record = new ResponseRecord(responseId, runId, userKey, threadKey,
                continuation.map(Continuation::previousResponseId).orElse(null), store, echo,
                continuation.map(Continuation::prior).orElse(JsonValue.EMPTY_JSON_ARRAY), ResponseObjects.array(input),
                clock.millis());
        records.insert(record);
        RunView run;
        try {
            run = runs.ingest(new MessageCommand(userKey, ResponseRecords.SOURCE, threadKey, null,
                    runText(input), "followUp", null, runId, RunKind.RESPONSE)).run();
        } catch (RuntimeException e) {
            // Nothing is kept of a response whose run could not be stored (and a record left by a
            // failing delete is never served: a response is found only with its run).
            try {
                records.forget(record);
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            if (e instanceof QueueFullException full) {
                throw ResponseError.of(429, "queue_full", full.getMessage());
            }
            throw e;
        }
        return new Response(record, run);
    }

    /** The response as it stands; empty when the user has no stored response of that id. */
    public Optional<Response> find(String userKey, String responseId) {
        return records.find(responseId).filter(r -> r.userKey().equals(userKey))
                .flatMap(r -> runs.find(userKey, r.runId()).map(run -> new Response(r, run)));
    }

    /**
     * The text the response's run streamed so far, in order: read after the run ended, all of it
     * (an execution's text is written before its result).
     */
    public List<RunTextPart> streamed(Response response) {
        return texts.parts(response.record().runId());
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

    /**
     * A page of the items used to make the response ({@link InputItems}); empty when the user has
     * no stored response of that id.
     */
    public Optional<JsonObject> inputItems(String userKey, String responseId, InputItems.Query query) {
        return find(userKey, responseId).map(r -> InputItems.page(InputItems.of(responseId,
                r.record().prior().getValuesAs(JsonObject.class), r.record().input().getValuesAs(JsonObject.class)), query));
    }

    /**
     * Cancels the response's run if it has not ended; returns the response as it then stands:
     * {@code cancelled}, or as it ended when its run ended first (between the read and the
     * interrupt, which then finds no active turn).
     */
    public Optional<Response> cancel(String userKey, String responseId) {
        Optional<Response> response = find(userKey, responseId);
        if (response.isEmpty() || response.get().state().isTerminal() || response.get().turnId() == null) {
            return response;
        }
        try {
            turns.interrupt(userKey, response.get().turnId(), "cancelled through POST /responses/" + responseId + "/cancel");
        } catch (TurnRejectedException e) {
            if (e.reason() != TurnRejectedException.Reason.NOT_ACTIVE) {
                throw e;
            }
            // the run ended first: the response stands as it ended
        }
        return find(userKey, responseId);
    }

    /**
     * OpenAI's {@code DELETE /responses/{id}}: the response is forgotten as an unstored one is once
     * answered (its record, its items in the thread, its streamed text, its run's input and output),
     * after its run is cancelled if it has not ended — so nothing it would still write outlives it.
     * Afterwards it is not found, and a continuation naming it is refused as one naming an unknown id.
     *
     * @return false when the user has no stored response of that id
     */
    public boolean delete(String userKey, String responseId) {
        Optional<Response> ended = cancel(userKey, responseId);
        ended.ifPresent(r -> records.forget(r.record()));
        return ended.isPresent();
    }

    /**
     * A {@code function_call_output} answers a call: one made earlier in the conversation (the
     * previous response's output, or a {@code function_call} item the client replays before it).
     * One whose {@code call_id} matches none is refused — the client lost track of its calls, and
     * a turn made of it would answer nothing (a WebSocket connection then evicts the response it
     * tried to continue).
     *
     * @throws ResponseError 400 {@code invalid_value} on {@code input[i].call_id}
     */
    static void answersOnlyCallsMade(List<JsonObject> prior, List<JsonObject> input) {
        Set<String> calls = new HashSet<>();
        prior.stream().filter(i -> "function_call".equals(i.getString("type", ""))).forEach(i -> calls.add(i.getString("call_id", "")));
        for (int i = 0; i < input.size(); i++) {
            JsonObject item = input.get(i);
            String type = item.getString("type", "");
            if ("function_call".equals(type)) {
                calls.add(item.getString("call_id", ""));
            } else if ("function_call_output".equals(type) && !calls.contains(item.getString("call_id", ""))) {
                throw ResponseError.invalid("input[" + i + "].call_id", "No tool call found for function call output with"
                        + " call_id " + item.getString("call_id", "") + ".");
            }
        }
    }

    /** What the run records as its text: the input's messages and tool outputs, one per line. */
    static String runText(List<JsonObject> input) {
        return input.stream().map(item -> "function_call_output".equals(item.getString("type", ""))
                        ? ResponseObjects.text(item.get("output"))
                        : ClientCall.text(item))
                .filter(t -> !t.isEmpty()).collect(Collectors.joining("\n"));
    }
}
