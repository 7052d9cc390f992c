package dev.switchboard.core.lane;

/**
 * A feature plugged in above the lane. Features act in one order, for every part they play
 * ({@link ExecutionPreparation}, {@link RunEnding}): lower first. The order in use: conversation
 * 100, responses 200, chat 300, workspaces 400, delegation 500 — so a turn's workspace change is
 * kept, or refused, before its calls are dispatched, and delegation's gate wraps the thread's engine
 * last.
 */
public interface LaneFeature {

    int order();
}
