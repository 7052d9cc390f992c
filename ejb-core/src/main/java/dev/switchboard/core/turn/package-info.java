/**
 * Turns: the control plane's conversation steps. A turn is carried out by runs in its thread's
 * lane (one, or more when steered); its lifecycle is journalled as Holon notifications in the
 * same transactions that change its runs. {@link dev.switchboard.core.turn.TurnPolicy} decides
 * what a new turn does to a busy thread; {@link dev.switchboard.core.turn.TurnInput} validates
 * input; both are plain rules. {@link dev.switchboard.core.turn.TurnTracker} is the lanes'
 * listener: it keeps a turn in step with its runs and fires
 * {@link dev.switchboard.core.lifecycle.TurnEnded} when one ends.
 */
package dev.switchboard.core.turn;
