package dev.switchboard.core.conversation;

import java.util.Optional;

/**
 * A conversation thread's state (spec §4) and how it moves. {@code COMPLETED} is reserved: kept
 * for compatibility with the reference, never entered (decision I8). Interrupt, clear and
 * undo/redo also drop a pending approval and auth prompt (decision I5) — the services do that
 * with the move.
 */
public enum ThreadState {

    IDLE("Idle"), PROCESSING("Processing"), AWAITING_APPROVAL("AwaitingApproval"), COMPLETED("Completed"),
    INTERRUPTED("Interrupted");

    /** What moves a thread. */
    public enum Event {
        /** User input accepted for a new turn. */
        INPUT,
        /** The turn ended: a reply, a failure, or an auth prompt. */
        TURN_ENDED,
        /** A tool call needs approval. */
        NEEDS_APPROVAL,
        INTERRUPT,
        DENY,
        APPROVE,
        RESUME,
        CLEAR,
        /** Undo, redo or a restored checkpoint. */
        RESTORE
    }

    /** How input is handled in a state (spec §7). */
    public enum InputHandling {
        /** A turn runs on it. */
        RUN_TURN,
        /** It waits for the running turn (as many as the thread's queue cap lets wait). */
        QUEUE,
        /** The pending approval is shown again; the input is not kept. */
        REMIND_APPROVAL,
        /** Refused: {@code Thread completed. Use /thread new.} */
        REFUSE
    }

    private final String label;

    ThreadState(String label) {
        this.label = label;
    }

    /**
     * The state of a thread whose turns are durable runs: {@code PROCESSING} while it has an active
     * turn (running or waiting), else {@code AWAITING_APPROVAL} while a tool call waits for a
     * person, else {@code IDLE} — derived, never stored, so it cannot disagree with the lanes.
     */
    public static ThreadState of(boolean activeTurn, boolean approvalPending) {
        return activeTurn ? PROCESSING : approvalPending ? AWAITING_APPROVAL : IDLE;
    }

    /** The name clients see (the reference's). */
    public String label() {
        return label;
    }

    public static Optional<ThreadState> ofLabel(String label) {
        for (ThreadState s : values()) {
            if (s.label.equals(label)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** Where {@code event} takes this state; empty when it does not apply here. */
    public Optional<ThreadState> on(Event event) {
        ThreadState next = switch (event) {
            case INPUT -> this == IDLE || this == INTERRUPTED ? PROCESSING : null;
            case TURN_ENDED -> this == PROCESSING ? IDLE : null;
            case NEEDS_APPROVAL -> this == PROCESSING ? AWAITING_APPROVAL : null;
            case INTERRUPT -> this == PROCESSING || this == AWAITING_APPROVAL ? INTERRUPTED : null;
            case DENY -> this == AWAITING_APPROVAL ? IDLE : null;
            case APPROVE -> this == AWAITING_APPROVAL ? PROCESSING : null;
            case RESUME -> this == INTERRUPTED ? IDLE : null;
            case CLEAR, RESTORE -> IDLE;
        };
        return Optional.ofNullable(next);
    }

    public InputHandling inputHandling() {
        return switch (this) {
            case IDLE, INTERRUPTED -> InputHandling.RUN_TURN;
            case PROCESSING -> InputHandling.QUEUE;
            case AWAITING_APPROVAL -> InputHandling.REMIND_APPROVAL;
            case COMPLETED -> InputHandling.REFUSE;
        };
    }
}
