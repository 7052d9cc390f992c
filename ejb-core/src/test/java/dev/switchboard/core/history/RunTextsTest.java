package dev.switchboard.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run's streamed text, on PostgreSQL and on the embedded H2: kept only from the execution that
 * owns the run now (the lane's fence on the attempt) — not from an attempt the run was taken from,
 * not once the run has ended.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class RunTextsTest {

    private final LocalTransactions tx;
    private final Statements statements;
    private final RunTexts texts;

    RunTextsTest(FreshDatabase.Kind kind) {
        tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_run_texts"));
        statements = new Statements(tx.dataSource());
        texts = new RunTexts(statements);
    }

    @Test
    void onlyTheRunsCurrentExecutionKeepsText() {
        String runId = UUID.randomUUID().toString();
        tx.run(() -> statements.update("INSERT INTO runs (run_id, thread_id, thread_seq, user_key, thread_key, source,"
                + " delivery_mode, state, input_text, attempt, payload_hash, created_at, updated_at, kind)"
                + " VALUES (?, 1, 1, 'u', 't', 'http', 'followUp', 'executing', 'hi', 2, 'h', 0, 0, 'message')",
                s -> s.setString(1, runId), "a run on its second attempt"));

        assertTrue(tx.inTransaction(() -> texts.append(runId, 2, 1, "kept")), "the owner's text");
        assertFalse(tx.inTransaction(() -> texts.append(runId, 1, 7, "late")), "a taken-over attempt's text");
        tx.run(() -> statements.update("UPDATE runs SET state = 'succeeded' WHERE run_id = ?", s -> s.setString(1, runId),
                "the run ends"));
        assertFalse(tx.inTransaction(() -> texts.append(runId, 2, 2, "after the end")), "text after the run's end");

        assertEquals(List.of(new RunTextPart(2, 1, "kept")), tx.inTransaction(() -> texts.parts(runId)));
    }
}
