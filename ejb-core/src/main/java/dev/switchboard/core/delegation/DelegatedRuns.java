package dev.switchboard.core.delegation;

import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.execution.ExecutionPreparation;
import dev.switchboard.core.execution.RunContent;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.lane.LaneSweep;
import dev.switchboard.core.lane.RunEnding;
import dev.switchboard.persistence.run.RunKind;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Delegation on the lane. Any run may delegate: its engine reads its place in a call tree. A
 * delegated call runs behind the agents' concurrency limits ({@link HandlerGate}). An execution
 * that asks for calls has them dispatched as it ends and parks until their replies are in; a
 * delegated call's end is its reply to its caller; an outer unit of work that ran again closes its
 * tree when it ends. Deadlines and orphaned paths are swept on the lane's timers.
 */
@ApplicationScoped
public class DelegatedRuns implements ExecutionPreparation, RunEnding, LaneSweep {

    /** The error of an outer unit of work whose delegation ended without a final answer (§3.8). */
    public static final String INCOMPLETE = "incomplete: the delegation ended without a final answer";
    /** The error of an execution whose output asked for calls but named none it could read. */
    public static final String NO_CALLS = "the engine asked for calls but named none";

    @Inject
    PathLedger paths;

    @Inject
    PathClosing closing;

    @Inject
    PathReads reads;

    @Inject
    DelegationSettings settings;

    @EJB
    PathSweeps sweeps;

    private HandlerGate gate;

    @PostConstruct
    void start() {
        gate = new HandlerGate(settings.maxConcurrent(), settings.maxPerAgent());
    }

    @Override
    public int order() {
        return 500;
    }

    // --- preparing an execution ---

    @Override
    public Prepared prepare(Claim claim, Prepared prepared) {
        Prepared placed = prepared.withInputs(prepared.inputs().withDelegation(() -> reads.context(claim.runId())));
        RunContent run = RunContent.of(claim);
        String agent = PathLanes.agentOf(run.source());
        return run.kind() == RunKind.DELEGATED && agent != null ? placed.withEngine(gate.gate(placed.engine(), agent))
                : placed;
    }

    // --- a run's end ---

    @Override
    public Review review(Ending ending) {
        String output = ending.outputJson();
        if (PathLedger.asksForCalls(output)) {
            JsonObject parsed = Jsons.readObjectOrNull(output);
            Optional<List<Delegation.Call>> calls = parsed == null ? Optional.empty() : Delegation.callsIn(parsed);
            if (calls.isEmpty()) {
                return Review.fail(null, NO_CALLS);
            }
            PathLedger.Dispatch dispatch = paths.dispatch(ending.run(), calls.get(), Delegation.stateIn(parsed),
                    ending.now());
            if (dispatch.refusal() != null) {
                return Review.fail(null, dispatch.refusal());
            }
            return Review.park(new Park(dispatch.waits(), dispatch.effects().wake()));
        }
        if (RunContent.of(ending.run()).kind() != RunKind.DELEGATED && PathLedger.answersNothing(output)) {
            return Review.fail("incomplete", INCOMPLETE);
        }
        return Review.PROCEED;
    }

    @Override
    public LaneEffects ended(Ended ended) {
        if (RunContent.of(ended.run()).kind() == RunKind.DELEGATED) { // its reply goes to its caller
            // A call's lane is cancelled only once its path closed (a reply, a timeout above it): nothing to answer.
            return "cancelled".equals(ended.end().errorCode()) ? LaneEffects.NONE
                    : paths.replied(ended.run(), ended.end(), ended.now());
        }
        if (ended.finished() && ended.attempt() > 1) { // a unit of work that delegated ran again: its tree closes with it
            closing.rootEnded(ended.run().runId(), ended.end(), ended.now());
        }
        return LaneEffects.NONE;
    }

    // --- the sweep ---

    @Override
    public String name() {
        return "Delegation sweep";
    }

    @Override
    public long periodMs() {
        return settings.sweepMs();
    }

    /**
     * Calls past their deadline get their {@code timeout} (and their callee's lane is cancelled), and
     * live paths whose run ended — below a cancelled or interrupted unit of work, or the roots of
     * finished ones — close with everything below them.
     */
    @Override
    public void sweep(Consumer<LaneEffects> apply) {
        for (CallSlots.SlotRow slot : sweeps.overdueCalls()) {
            apply.accept(sweeps.expireCall(slot.callerRunId(), slot.slot()));
        }
        for (PathRegistry.Orphan orphan : sweeps.orphanPaths()) {
            apply.accept(sweeps.closeOrphan(orphan));
        }
    }
}
