package dev.switchboard.core.delegation;

import dev.switchboard.core.json.Jsons;

import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.function.Supplier;

/**
 * The delegation records as their readers see them, without a transaction of their own: an
 * execution's place in its tree ({@link #context}, for the engine) and a unit of work's call tree
 * ({@link #tree}, {@link #slotsOf}, for the API). {@link PathLedger}, {@link CallTimeouts} and
 * {@link PathClosing} write them.
 */
@Store({"path_calls", "path_registry"})
@ApplicationScoped
public class PathReads {

    private static final String HANDLER_WITH_STATE = "SELECT " + PathRegistry.PATH_COLUMNS + ", state"
            + " FROM path_registry WHERE run_id = ? AND depth > 0";
    private static final String TREE = "SELECT " + PathRegistry.PATH_COLUMNS
            + " FROM path_registry WHERE root_run_id = ? ORDER BY depth, created_at, uuid";
    private static final String REPLIES = "SELECT call_index, from_name, status, code, result_text FROM path_calls"
            + " WHERE caller_run_id = ? AND status <> 'pending' ORDER BY slot";

    @Inject
    Statements statements;

    @Inject
    DelegationSettings settings;

    @Inject
    CallSlots slots;

    /** A path and what its run's last execution kept (null: nothing). */
    private record Handler(PathRegistry.PathRow path, String state) {
    }

    /**
     * What an execution of {@code runId} knows of its tree, read when the engine first asks: its
     * path with the state it kept (one read), and its replies when it asks for them.
     */
    public Delegation context(String runId) {
        List<Handler> handler = statements.query(HANDLER_WITH_STATE, s -> s.setString(1, runId),
                rs -> new Handler(PathRegistry.pathRow(rs), rs.getString(19)), "reading the path of run " + runId);
        Supplier<List<Delegation.Reply>> replies = new Supplier<>() {
            private List<Delegation.Reply> read;

            @Override
            public synchronized List<Delegation.Reply> get() {
                if (read == null) {
                    read = statements.query(REPLIES, s -> s.setString(1, runId), rs -> new Delegation.Reply(rs.getInt(1),
                            rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)), "reading replies");
                }
                return read;
            }
        };
        String agent = handler.isEmpty() ? settings.entry() : handler.get(0).path().agent();
        String instructions = settings.agents().byName(agent).map(Agent::instructions).orElse(null);
        List<String> callable = settings.agents().callableBy(agent);
        if (handler.isEmpty()) {
            return new Delegation(agent, null, null, false, replies, instructions, callable, null);
        }
        PathRegistry.PathRow p = handler.get(0).path();
        String kept = handler.get(0).state();
        return new Delegation(agent, p.uuid(), p.caller(), agent.equals(p.caller()), replies, instructions, callable,
                kept == null ? null : Jsons.readObjectOrNull(kept));
    }

    /** Every path of the tree of unit of work {@code rootRunId}, root first. */
    public List<PathRegistry.PathRow> tree(String rootRunId) {
        return statements.query(TREE, s -> s.setString(1, rootRunId), PathRegistry::pathRow, "reading a tree");
    }

    /** The call slots of run {@code runId}, in order. */
    public List<CallSlots.SlotRow> slotsOf(String runId) {
        return slots.slotsOf(runId);
    }
}
