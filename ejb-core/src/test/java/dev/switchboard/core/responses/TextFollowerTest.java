package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.history.RunTextPart;
import org.junit.jupiter.api.Test;

/** A follower's parts: each once, in order; after a gap or dropped notifications, none live until the end's read. */
class TextFollowerTest {

    private static RunTextPart part(int attempt, int number) {
        return new RunTextPart(attempt, number, "p" + attempt + "." + number);
    }

    @Test
    void storedPartsGoOutOnceAndLivePartsFollowThem() {
        TextFollower f = new TextFollower();
        assertTrue(f.stored(part(1, 0)));
        assertTrue(f.stored(part(1, 1)));
        assertFalse(f.live(part(1, 1)), "already sent from the store");
        assertTrue(f.live(part(1, 2)));
        assertTrue(f.live(part(2, 0)), "the first part of the next attempt follows");
        assertFalse(f.stored(part(1, 2)), "the end's read sends nothing twice");
        assertTrue(f.stored(part(2, 1)));
    }

    @Test
    void aFirstLivePartMustBeTheFirstOfTheFirstAttempt() {
        assertTrue(new TextFollower().live(part(1, 0)));
        TextFollower late = new TextFollower();
        assertFalse(late.live(part(1, 3)), "parts 0-2 were missed");
        assertFalse(late.live(part(1, 4)), "after a gap nothing live, even what follows it");
        assertTrue(late.stored(part(1, 0)), "the end's read brings them all, in order");
        assertTrue(late.stored(part(1, 4)));
    }

    @Test
    void aGapOrDroppedNotificationsStopTheLivePartsUntilTheEnd() {
        TextFollower gap = new TextFollower();
        assertTrue(gap.stored(part(1, 0)));
        assertFalse(gap.live(part(1, 2)));
        assertFalse(gap.live(part(1, 3)));
        assertFalse(gap.live(part(3, 0)), "an attempt that skipped one is a gap too");

        TextFollower dropped = new TextFollower();
        assertTrue(dropped.live(part(1, 0)));
        dropped.missedSome();
        assertFalse(dropped.live(part(1, 1)));
        assertTrue(dropped.stored(part(1, 1)));
    }
}
