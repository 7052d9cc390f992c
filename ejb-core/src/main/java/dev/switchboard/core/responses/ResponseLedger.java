package dev.switchboard.core.responses;

import dev.switchboard.core.history.ResponseRecord;
import dev.switchboard.core.history.ResponseRecords;
import dev.switchboard.core.lane.FinishedRuns;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * The response records' transactions. Each call is a transaction of its own, so its connection
 * goes back to the pool when it returns — not when the HTTP request that made it ends, which for a
 * streamed response is when the stream ends (a request's own connections stay with it until then).
 */
@Stateless
public class ResponseLedger {

    @Inject
    ResponseRecords records;

    @Inject
    FinishedRuns runs;

    public void insert(ResponseRecord record) {
        records.insert(record);
    }

    public Optional<ResponseRecord> find(String responseId) {
        return records.find(responseId);
    }

    /**
     * Forgets a response that was not to be stored: its record, its run's items in the thread's
     * history, the text it streamed, and the run's input and output (the run keeps its lifecycle).
     */
    public void forget(ResponseRecord record) {
        records.forget(record);
        runs.blankContent(record.runId());
    }
}
