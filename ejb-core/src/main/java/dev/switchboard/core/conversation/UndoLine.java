package dev.switchboard.core.conversation;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A thread's undo and redo checkpoints (spec §10). A checkpoint is taken right before each turn
 * starts and clears what could be redone; undo saves the current state for redo and returns the
 * newest checkpoint, redo the reverse; {@code undoCount + redoCount} stays the same across them.
 * Both stacks keep at most {@code max} entries, the oldest dropped (I9: redo is capped too), and
 * restoring a checkpoint by id saves the current state for redo instead of losing it (I9).
 *
 * @param <S> what a checkpoint holds: the thread's model context at that point
 */
public final class UndoLine<S> {

    public static final int MAX_CHECKPOINTS = 20;

    public record Checkpoint<S>(UUID id, int turnNumber, S state, String description) {
    }

    private final int max;
    private final Deque<Checkpoint<S>> undo = new ArrayDeque<>();
    private final Deque<Checkpoint<S>> redo = new ArrayDeque<>();

    public UndoLine() {
        this(MAX_CHECKPOINTS);
    }

    public UndoLine(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        this.max = max;
    }

    /** A line holding stored stacks, oldest first. */
    public UndoLine(int max, List<Checkpoint<S>> undoStack, List<Checkpoint<S>> redoStack) {
        this(max);
        undoStack.forEach(c -> push(undo, c));
        redoStack.forEach(c -> push(redo, c));
    }

    /** Saves the state before turn {@code turnNumber}; nothing can be redone after it. */
    public Checkpoint<S> checkpoint(int turnNumber, S state, String description) {
        redo.clear();
        Checkpoint<S> c = new Checkpoint<>(UUID.randomUUID(), turnNumber, state, description);
        push(undo, c);
        return c;
    }

    /** The newest checkpoint, the current state saved for redo; empty when there is nothing to undo. */
    public Optional<Checkpoint<S>> undo(int currentTurn, S current) {
        if (undo.isEmpty()) {
            return Optional.empty();
        }
        push(redo, new Checkpoint<>(UUID.randomUUID(), currentTurn, current, "Turn " + currentTurn));
        return Optional.of(undo.pollLast());
    }

    /** The newest undone state, the current one saved for undo; empty when there is nothing to redo. */
    public Optional<Checkpoint<S>> redo(int currentTurn, S current) {
        if (redo.isEmpty()) {
            return Optional.empty();
        }
        push(undo, new Checkpoint<>(UUID.randomUUID(), currentTurn, current, "Turn " + currentTurn));
        return Optional.of(redo.pollLast());
    }

    /**
     * Goes back to checkpoint {@code id}: it and every newer checkpoint leave the undo stack, the
     * current state becomes the only thing to redo. Empty (nothing changed) when it is not there.
     */
    public Optional<Checkpoint<S>> restore(UUID id, int currentTurn, S current) {
        if (undo.stream().noneMatch(c -> c.id().equals(id))) {
            return Optional.empty();
        }
        redo.clear();
        push(redo, new Checkpoint<>(UUID.randomUUID(), currentTurn, current, "Turn " + currentTurn));
        Checkpoint<S> c;
        do {
            c = undo.pollLast();
        } while (!c.id().equals(id));
        return Optional.of(c);
    }

    public void clear() {
        undo.clear();
        redo.clear();
    }

    public int undoCount() {
        return undo.size();
    }

    public int redoCount() {
        return redo.size();
    }

    public boolean canUndo() {
        return !undo.isEmpty();
    }

    public boolean canRedo() {
        return !redo.isEmpty();
    }

    /** The stacks, oldest first (to store them). */
    public List<Checkpoint<S>> undoStack() {
        return List.copyOf(undo);
    }

    public List<Checkpoint<S>> redoStack() {
        return List.copyOf(redo);
    }

    private void push(Deque<Checkpoint<S>> stack, Checkpoint<S> c) {
        stack.addLast(c);
        while (stack.size() > max) {
            stack.pollFirst();
        }
    }
}
