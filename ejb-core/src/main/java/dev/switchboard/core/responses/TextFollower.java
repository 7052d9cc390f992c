package dev.switchboard.core.responses;

import dev.switchboard.core.history.RunTextPart;

/**
 * Which parts of a run's streamed text a follower sends: each once, in order. A part read from the
 * store goes out when it comes after the last one sent. A part a notification brings goes out only
 * when it is the very next one; one that leaves a gap (a part missed between the store read and the
 * subscription going live, or one whose write failed) — or notifications dropped for a slow
 * follower — stops the live parts, and the follower waits for the run's end, whose store read has
 * them all. So what is sent never depends on when the follower came, only when. Plain Java: the
 * stream feed asks, one thread at a time; only {@link #missedSome} may come from another.
 */
public final class TextFollower {

    private RunTextPart last;
    private volatile boolean broken;

    /** A part read from the store: whether to send it. */
    public boolean stored(RunTextPart part) {
        if (part.isAfter(last)) {
            last = part;
            return true;
        }
        return false;
    }

    /** A part a notification brought: whether to send it. */
    public boolean live(RunTextPart part) {
        if (broken) {
            return false;
        }
        if (part.follows(last)) {
            last = part;
            return true;
        }
        if (part.isAfter(last)) {
            broken = true;
        }
        return false;
    }

    /** Notifications were dropped: no live part is trusted until the end's store read. */
    public void missedSome() {
        broken = true;
    }
}
