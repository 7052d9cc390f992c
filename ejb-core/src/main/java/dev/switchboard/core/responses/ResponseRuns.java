package dev.switchboard.core.responses;

import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.execution.ExecutionPreparation;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.history.ResponseRecord;
import dev.switchboard.core.history.ResponseRecords;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A response's run reads the conversation its request resolved (else its thread's) and the
 * client's model request itself, from the response's record — read once, when its engine first
 * asks for either.
 */
@ApplicationScoped
public class ResponseRuns implements ExecutionPreparation {

    @Inject
    ResponseRecords responses;

    @Override
    public int order() {
        return 200;
    }

    @Override
    public Prepared prepare(Claim claim, Prepared prepared) {
        if (RunContent.of(claim).kind() != RunKind.RESPONSE) {
            return prepared;
        }
        Supplier<List<JsonObject>> threadHistory = prepared.inputs().history();
        Supplier<Optional<ResponseRecord>> record = new Supplier<>() {
            private Optional<ResponseRecord> read;

            @Override
            public synchronized Optional<ResponseRecord> get() {
                if (read == null) {
                    read = responses.ofRun(claim.runId());
                }
                return read;
            }
        };
        return prepared.withInputs(prepared.inputs()
                .withHistory(() -> record.get().map(r -> r.prior().getValuesAs(JsonObject.class)).orElseGet(threadHistory))
                .withClientCall(() -> record.get().map(r -> ClientCall.of(r.request(), r.input())).orElse(null)));
    }
}
