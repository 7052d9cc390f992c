package dev.switchboard.core.delegation;

import com.google.common.base.Suppliers;
import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.execution.ScopedReads;
import dev.switchboard.core.json.Jsons;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The delegation records as their readers see them, without a transaction of their own: an
 * execution's place in its tree ({@link #context}, for the engine) and a unit of work's call tree
 * ({@link #tree}, {@link #slotsOf}, for the API). {@link PathLedger}, {@link CallTimeouts} and
 * {@link PathClosing} write them.
 */
@ApplicationScoped
public class PathReads {

    @Inject
    PathRegistry paths;

    @Inject
    DelegationSettings settings;

    @Inject
    CallSlots slots;

    @Inject
    ScopedReads reads;

    /**
     * What an execution of {@code runId} knows of its tree, read when the engine first asks: its
     * path with the state it kept (one read), and its replies when it asks for them.
     */
    public Delegation context(String runId) {
        Optional<PathRegistry.Handler> handler = paths.handlerWithState(runId);
        // Read once, when the engine asks, on whatever thread it asks on: in the read scope.
        Supplier<List<Delegation.Reply>> replies = Suppliers.memoize(() -> reads.read(() -> slots.replies(runId)));
        String agent = handler.isEmpty() ? settings.entry() : handler.get().path().agent();
        String instructions = settings.agents().byName(agent).map(Agent::instructions).orElse(null);
        List<String> callable = settings.agents().callableBy(agent);
        if (handler.isEmpty()) {
            return new Delegation(agent, null, null, false, replies, instructions, callable, null);
        }
        PathRegistry.PathRow p = handler.get().path();
        String kept = handler.get().state();
        return new Delegation(agent, p.uuid(), p.caller(), agent.equals(p.caller()), replies, instructions, callable,
                kept == null ? null : Jsons.readObjectOrNull(kept));
    }

    /** Every path of the tree of unit of work {@code rootRunId}, root first. */
    public List<PathRegistry.PathRow> tree(String rootRunId) {
        return paths.tree(rootRunId);
    }

    /** The call slots of run {@code runId}, in order. */
    public List<CallSlots.SlotRow> slotsOf(String runId) {
        return slots.slotsOf(runId);
    }
}
