/**
 * What a claimed run executes: {@link dev.switchboard.core.execution.EngineWork}, the lane's
 * {@link dev.switchboard.core.lane.RunWork}, calls the engine the run's thread chose, as the features'
 * {@link dev.switchboard.core.execution.ExecutionPreparation}s wrap and feed it. Above the lane, which
 * names no engine, below the features that prepare executions.
 */
package dev.switchboard.core.execution;
