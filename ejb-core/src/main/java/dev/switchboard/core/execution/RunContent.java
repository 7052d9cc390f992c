package dev.switchboard.core.execution;

import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.LaneRun;
import dev.switchboard.core.lane.NewRun;
import dev.switchboard.core.lane.RunPayload;
import dev.switchboard.persistence.run.RunKind;
import java.util.Objects;

/**
 * What a run carries above the lane, the lane's {@link RunPayload}: the user and thread it is for,
 * the label it came with ({@code source}) and what it is ({@code kind}, set by the door that
 * ingested it), the sender outside, how it is delivered, its input (text, and structured items as
 * JSON or null), its turn (null for a run without one), the hash its idempotency compares, and —
 * read with the run, never written by it — its turn as it was then ({@link TurnAsRead}).
 */
public record RunContent(String userKey, String threadKey, String source, RunKind kind, String externalUserKey,
        String deliveryMode, String inputText, String inputJson, String turnId, String payloadHash, TurnAsRead turn)
        implements RunPayload {

    public RunContent {
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * A run's turn as read with the run: whether it is active, when it started and what it was merged
     * into (0 and null without an active turn), and how many runs it has.
     */
    public record TurnAsRead(boolean active, long startedAt, String mergedInto, int runs) {

        /** Not read: a run being written. */
        public static final TurnAsRead UNREAD = new TurnAsRead(false, 0, null, 0);
    }

    /** A run to write: its turn is what its row will be read with. */
    public static RunContent of(String userKey, String threadKey, String source, RunKind kind, String externalUserKey,
            String deliveryMode, String inputText, String inputJson, String turnId, String payloadHash) {
        return new RunContent(userKey, threadKey, source, kind, externalUserKey, deliveryMode, inputText, inputJson,
                turnId, payloadHash, TurnAsRead.UNREAD);
    }

    /** What the claimed run carries. */
    public static RunContent of(Claim claim) {
        return (RunContent) claim.payload(); // the only payload plugged in (RunColumns)
    }

    /** What the lane's run carries. */
    public static RunContent of(LaneRun run) {
        return (RunContent) run.payload();
    }

    /** What the new run carries. */
    public static RunContent of(NewRun run) {
        return (RunContent) run.payload();
    }

    public boolean turnActive() {
        return turn.active();
    }

    public long turnStartedAt() {
        return turn.startedAt();
    }

    public String turnMergedInto() {
        return turn.mergedInto();
    }

    public int turnRuns() {
        return turn.runs();
    }

    /** As read right after its run was added and started at {@code createdAt}: the only run of a turn begun then. */
    RunContent added(long createdAt) {
        return new RunContent(userKey, threadKey, source, kind, externalUserKey, deliveryMode, inputText, inputJson,
                turnId, payloadHash, turnId == null ? TurnAsRead.UNREAD : new TurnAsRead(true, createdAt, null, 1));
    }
}
