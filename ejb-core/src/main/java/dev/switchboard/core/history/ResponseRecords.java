package dev.switchboard.core.history;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import java.io.StringReader;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The {@code responses} table in plain JDBC: what a {@code POST /responses} response keeps beside
 * its run — the normalised request, the conversation before it and its new input — so an engine
 * can be given the client's request and a continuation can resolve the chain.
 * Statements run in the caller's transaction if there is one.
 */
@Store("responses")
@ApplicationScoped
public class ResponseRecords {

    /** The source of a run that is a response. */
    public static final String SOURCE = "responses";

    private static final String COLUMNS = "response_id, run_id, user_key, thread_key, previous_response_id, stored,"
            + " request, prior, input, created_at";
    private static final String INSERT = "INSERT INTO responses (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String BY_ID = "SELECT " + COLUMNS + " FROM responses WHERE response_id = ?";
    private static final String BY_RUN = "SELECT " + COLUMNS + " FROM responses WHERE run_id = ?";
    private static final String DELETE = "DELETE FROM responses WHERE response_id = ?";

    @Inject
    Statements statements;

    @Inject
    ThreadItems items;

    @Inject
    RunTexts texts;

    public ResponseRecords() {
    }

    /** Built outside the container (the in-process tests). */
    public ResponseRecords(Statements statements, ThreadItems items, RunTexts texts) {
        this.statements = statements;
        this.items = items;
        this.texts = texts;
    }

    public void insert(ResponseRecord r) {
        statements.updateOne(INSERT, s -> {
            s.setString(1, r.responseId());
            s.setString(2, r.runId());
            s.setString(3, r.userKey());
            s.setString(4, r.threadKey());
            s.setString(5, r.previousResponseId());
            s.setBoolean(6, r.stored());
            s.setString(7, r.request().toString());
            s.setString(8, r.prior().toString());
            s.setString(9, r.input().toString());
            s.setLong(10, r.createdAt());
        }, "storing response " + r.responseId());
    }

    public Optional<ResponseRecord> find(String responseId) {
        return statements.query(BY_ID, s -> s.setString(1, responseId), ResponseRecords::read,
                "reading response " + responseId).stream().findFirst();
    }

    public Optional<ResponseRecord> ofRun(String runId) {
        return statements.query(BY_RUN, s -> s.setString(1, runId), ResponseRecords::read,
                "reading the response of run " + runId).stream().findFirst();
    }

    /**
     * Forgets a response that was not to be stored: its record, its run's items in the thread's
     * history and the text it streamed (its run's content is the lane's to blank: {@code FinishedRuns}).
     */
    public void forget(ResponseRecord r) {
        statements.update(DELETE, s -> s.setString(1, r.responseId()), "forgetting response " + r.responseId());
        items.deleteOfRun(r.runId());
        texts.deleteOfRun(r.runId());
    }

    private static ResponseRecord read(ResultSet rs) throws SQLException {
        return new ResponseRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getBoolean(6), (JsonObject) parse(rs.getString(7)), (JsonArray) parse(rs.getString(8)),
                (JsonArray) parse(rs.getString(9)), rs.getLong(10));
    }

    private static JsonStructure parse(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            return reader.read();
        }
    }

    /** Retention: deletes the stored responses of these runs (deleted with them, in the caller's transaction). */
    public int deleteOfRuns(List<String> runIds) {
        return statements.updateIn("DELETE FROM responses WHERE run_id IN (%s)", runIds, "deleting aged runs' responses");
    }
}
