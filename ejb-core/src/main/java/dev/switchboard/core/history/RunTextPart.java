package dev.switchboard.core.history;

/**
 * One piece of the text a run's engine streamed, as {@link RunTexts} keeps it; pieces are ordered
 * by attempt, then part.
 */
public record RunTextPart(int attempt, int part, String text) implements Comparable<RunTextPart> {

    /**
     * Whether this piece is the one right after {@code previous} (null: none yet): the next part of
     * the same attempt, or the first of the next attempt.
     */
    public boolean follows(RunTextPart previous) {
        return previous == null ? attempt == 1 && part == 0
                : attempt == previous.attempt ? part == previous.part + 1
                : attempt == previous.attempt + 1 && part == 0;
    }

    /** Whether this piece comes after {@code other} (null: before everything). */
    public boolean isAfter(RunTextPart other) {
        return other == null || compareTo(other) > 0;
    }

    @Override
    public int compareTo(RunTextPart other) {
        return attempt != other.attempt ? Integer.compare(attempt, other.attempt) : Integer.compare(part, other.part);
    }
}
