package dev.switchboard.core.execution;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.LaneFeature;

/**
 * A feature's part in preparing a claimed run's execution: which engine runs it (a feature may wrap
 * the engine its thread chose) and what that engine reads beyond the run's text. {@link EngineWork}
 * starts from the thread's engine and {@link EngineInputs#NONE}, then applies every preparation in
 * {@linkplain LaneFeature order}; each sees what the earlier ones made. Features decide by the claim's
 * {@linkplain Claim#kind() kind}; the lane knows none of them.
 *
 * <p>Called on a lane worker as the execution starts, outside any transaction: a preparation
 * should read the database only inside the suppliers it hands the engine, when the engine first
 * asks (one that must hand ids to what it constructs reads those at once).
 */
public interface ExecutionPreparation extends LaneFeature {

    /** The execution of {@code claim} as this feature needs it, from {@code prepared} so far. */
    Prepared prepare(Claim claim, Prepared prepared);

    /** An execution being prepared: the engine that will run it and what that engine reads. */
    record Prepared(AgentEngine engine, EngineInputs inputs) {

        public Prepared withEngine(AgentEngine wrapped) {
            return new Prepared(wrapped, inputs);
        }

        public Prepared withInputs(EngineInputs changed) {
            return new Prepared(engine, changed);
        }
    }
}
