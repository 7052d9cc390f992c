package dev.switchboard.core.conversation;

import java.util.List;
import java.util.Optional;

/**
 * When a thread's model context needs compacting, and how (spec §11.1). Tokens are estimated from
 * words: {@code floor(words × 1.3) + 4} per message. Compaction is due at {@code threshold} of the
 * limit (default 80 % of 100 000); past 85 % the older turns are summarised (keeping 5), past 95 %
 * truncated (keeping 3), below that moved to the workspace.
 */
public final class ContextMonitor {

    public static final long DEFAULT_LIMIT = 100_000;
    public static final double DEFAULT_THRESHOLD = 0.8;

    /** How to compact. */
    public sealed interface Strategy {
    }

    public record Truncate(int keepRecent) implements Strategy {
    }

    public record Summarize(int keepRecent) implements Strategy {
    }

    public record MoveToWorkspace() implements Strategy {
    }

    /** The strategy of a manual {@code /compact} when the context needs none. */
    public static final Strategy DEFAULT_STRATEGY = new Summarize(5);

    private final long limit;
    private final double threshold;

    public ContextMonitor() {
        this(DEFAULT_LIMIT, DEFAULT_THRESHOLD);
    }

    /** {@code threshold} is clamped to [0.5, 0.95]. */
    public ContextMonitor(long limit, double threshold) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        this.limit = limit;
        this.threshold = Math.max(0.5, Math.min(0.95, threshold));
    }

    /** The estimate of a plain text: {@code floor(words × 1.3)}. */
    public static long textTokens(String text) {
        String t = text.strip();
        long words = t.isEmpty() ? 0 : t.split("\\s+").length;
        return (long) Math.floor(words * 1.3);
    }

    /** The estimate of a context whose messages have these texts. */
    public static long tokens(List<String> messageTexts) {
        return messageTexts.stream().mapToLong(text -> textTokens(text) + 4).sum();
    }

    public boolean needsCompaction(long tokens) {
        return tokens >= (long) Math.floor(limit * threshold);
    }

    public double usagePercent(long tokens) {
        return tokens * 100.0 / limit;
    }

    public Optional<Strategy> suggest(long tokens) {
        if (!needsCompaction(tokens)) {
            return Optional.empty();
        }
        double usage = (double) tokens / limit;
        if (usage > 0.95) {
            return Optional.of(new Truncate(3));
        }
        if (usage > 0.85) {
            return Optional.of(new Summarize(5));
        }
        return Optional.of(new MoveToWorkspace());
    }
}
