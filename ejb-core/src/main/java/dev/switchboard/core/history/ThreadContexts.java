package dev.switchboard.core.history;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonReader;
import java.io.StringReader;

/**
 * The {@code thread_contexts} table in plain JDBC: a thread's {@link ContextWindow}, for the
 * threads whose engine context was changed (undo, redo, compaction, clear). Writers hold the
 * thread's lane lock. Statements run in the caller's transaction if there is one.
 */
@Store("thread_contexts")
@ApplicationScoped
public class ThreadContexts {

    private static final String READ = "SELECT context FROM thread_contexts WHERE thread_id = ?";
    private static final String UPDATE = "UPDATE thread_contexts SET context = ?, updated_at = ? WHERE thread_id = ?";
    private static final String INSERT = "INSERT INTO thread_contexts (thread_id, context, updated_at) VALUES (?, ?, ?)";

    @Inject
    Statements statements;

    /** The thread's window; {@link ContextWindow#ALL} when it was never changed. */
    public ContextWindow of(long threadId) {
        return statements.query(READ, s -> s.setLong(1, threadId), rs -> {
            try (JsonReader reader = Jsons.createReader(new StringReader(rs.getString(1)))) {
                return ContextWindow.fromJson(reader.readObject());
            }
        }, "reading the context of thread " + threadId).stream().findFirst().orElse(ContextWindow.ALL);
    }

    public void write(long threadId, ContextWindow window, long now) {
        String json = window.toJson().toString();
        int updated = statements.update(UPDATE, s -> {
            s.setString(1, json);
            s.setLong(2, now);
            s.setLong(3, threadId);
        }, "writing the context of thread " + threadId);
        if (updated == 0) {
            statements.updateOne(INSERT, s -> {
                s.setLong(1, threadId);
                s.setString(2, json);
                s.setLong(3, now);
            }, "writing the context of thread " + threadId);
        }
    }
}
