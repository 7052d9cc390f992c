package dev.switchboard.core.turn;

import java.util.Locale;

/**
 * What a new turn does to a thread that already has active turns (Holon's follow-up policy,
 * with Switchboard's three distinct behaviours, H4).
 */
public enum TurnPolicy {
    /** Queue behind the active turns. */
    FOLLOWUP,
    /** Supersede the turns that have not started and carry their input into the new turn. */
    COLLECT,
    /** Supersede the turns that have not started and interrupt the running one. */
    INTERRUPT;

    /** What a new turn does to one of the thread's active turns. */
    public enum Effect {
        /** Left alone: the new turn queues behind it. */
        KEEP,
        /** Has not started: ends {@code interrupted} with {@link #supersededReason()}, its runs skipped. */
        SUPERSEDE,
        /** Has started: interrupted as by {@code turn/interrupt}. */
        INTERRUPT
    }

    /** The effect of a new turn on an active turn that has ({@code started}) or has not begun executing. */
    public Effect effectOn(boolean started) {
        if (!supersedesWaitingTurns()) {
            return Effect.KEEP;
        }
        if (!started) {
            return Effect.SUPERSEDE;
        }
        return interruptsRunningTurn() ? Effect.INTERRUPT : Effect.KEEP;
    }

    /** Unknown or empty values fall back to {@code followup}, as in Holon. */
    public static TurnPolicy parse(String value) {
        if (value == null) {
            return FOLLOWUP;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "collect" -> COLLECT;
            case "interrupt" -> INTERRUPT;
            default -> FOLLOWUP;
        };
    }

    public boolean supersedesWaitingTurns() {
        return this != FOLLOWUP;
    }

    public boolean carriesInputForward() {
        return this == COLLECT;
    }

    public boolean interruptsRunningTurn() {
        return this == INTERRUPT;
    }

    /** The message of a turn this policy superseded. */
    public String supersededReason() {
        return "superseded by newer turn (" + name().toLowerCase(Locale.ROOT) + " policy)";
    }

    /** Holon's queue-limit message. */
    public static String queueFullMessage(String threadKey, int limit) {
        return "session " + threadKey + " queue is full (" + limit + " queued turns)";
    }
}
