package dev.switchboard.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubscriptionTest {

    private final List<String> events = new ArrayList<>();
    private final Subscription.Sink sink = new Subscription.Sink() {
        @Override
        public void available() {
            events.add("available");
        }

        @Override
        public void overflow(long lastSentSeq) {
            events.add("overflow@" + lastSentSeq);
        }
    };

    private static Notification n(long seq, String user, String thread) {
        return new Notification(seq, user, thread, "turn/started",
                Notification.render(seq, "turn/started", "{\"thread_id\":\"" + thread + "\"}"), 0);
    }

    @Test
    void deliversOnlyNewerSeqsSoAReplayAndTheLiveFeedNeverRepeat() {
        Subscription sub = new Subscription("alice", null, 10, sink);
        sub.startAt(5);
        assertTrue(sub.offer(n(4, "alice", "t")));
        assertTrue(sub.offer(n(6, "alice", "t")));
        assertTrue(sub.offer(n(6, "alice", "t")));
        assertTrue(sub.offer(n(7, "alice", "t")));
        assertEquals(6, sub.poll().seq());
        assertEquals(7, sub.poll().seq());
        assertNull(sub.poll());
        assertEquals(List.of("available"), events);
    }

    @Test
    void filtersByUserAndThreadButAdvancesOverEverything() {
        Subscription sub = new Subscription("alice", Set.of("a"), 10, sink);
        sub.startAt(0);
        sub.offer(n(1, "bob", "a"));
        sub.offer(n(2, "alice", "b"));
        sub.offer(n(3, "alice", "a"));
        sub.offer(n(4, "alice", null));
        assertEquals(4, sub.cursor());
        assertEquals(3, sub.poll().seq());
        assertEquals(4, sub.poll().seq());
        assertNull(sub.poll());
    }

    @Test
    void aFullQueueCutsTheSubscriberOffAndReportsTheLastSeqSent() {
        Subscription sub = new Subscription("alice", null, 2, sink);
        sub.startAt(0);
        sub.offer(n(1, "alice", "t"));
        sub.offer(n(2, "alice", "t"));
        assertEquals(1, sub.poll().seq());
        sub.offer(n(3, "alice", "t"));
        assertFalse(sub.offer(n(4, "alice", "t")));
        assertTrue(sub.isClosed());
        assertNull(sub.poll());
        assertEquals("overflow@1", events.get(events.size() - 1));
        assertFalse(sub.offer(n(5, "alice", "t")));
    }

    @Test
    void rendersSeqIntoParams() {
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"turn/started\",\"params\":{\"seq\":9,\"turn_id\":\"t\"}}",
                Notification.render(9, "turn/started", "{\"turn_id\":\"t\"}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"x/y\",\"params\":{\"seq\":1}}", Notification.render(1, "x/y", "{}"));
    }

    @Test
    void theOverflowNoticeNamesTheResumePoint() {
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"stream/overflow\",\"params\":{\"last_seq\":41,"
                + "\"message\":\"subscriber fell too far behind; resume with after_seq\"}}", Notification.overflowNotice(41));
    }

    @Test
    void aReplayParksWhileTheQueueIsHalfFullAndTheSubscribersReadResumesIt() {
        Subscription sub = new Subscription("alice", null, 4, sink);
        sub.startAt(0);
        List<String> resumed = new ArrayList<>();
        assertFalse(sub.parkUntilRoom(() -> resumed.add("early")), "room now: no need to park");
        for (int seq = 1; seq <= 3; seq++) {
            sub.offer(n(seq, "alice", "t"));
        }
        assertTrue(sub.parkUntilRoom(() -> resumed.add("resumed")), "three of four: park, give the thread back");
        assertEquals(1, sub.poll().seq());
        assertEquals(List.of("resumed"), resumed, "two of four is room again: the replay continues");
        sub.poll();
        assertEquals(List.of("resumed"), resumed, "resumed once");
    }

    @Test
    void aReplayReadsNoMoreThanItCanHandOverBeforeItParks() {
        Subscription sub = new Subscription("alice", null, 10, sink);
        sub.startAt(0);
        sub.offer(n(1, "alice", "t"));
        int room = sub.replayRoom();
        int handed = 0;
        for (long seq = 2; !sub.parkUntilRoom(() -> { }); seq++) {
            sub.offer(n(seq, "alice", "t"));
            handed++;
        }
        assertEquals(handed, room, "a page of replayRoom() is handed over whole, and the next one parks");
        assertEquals(0, sub.replayRoom());
    }

    @Test
    void aClosedSubscriberNeverResumesAParkedReplay() {
        Subscription sub = new Subscription("alice", null, 2, sink);
        sub.startAt(0);
        sub.offer(n(1, "alice", "t"));
        sub.offer(n(2, "alice", "t"));
        List<String> resumed = new ArrayList<>();
        assertTrue(sub.parkUntilRoom(() -> resumed.add("resumed")));
        sub.close();
        assertNull(sub.poll());
        assertEquals(List.of(), resumed);
    }

    @Test
    void aGapIsNoticedOnceAheadOfWhatFollowsAndDoesNotMoveTheResumePoint() {
        Subscription sub = new Subscription("alice", null, 10, sink);
        sub.startAt(3);
        sub.noticeGap(50, "{\"method\":\"stream/gap\"}");
        sub.noticeGap(50, "again");
        sub.offer(n(51, "alice", "t"));
        Notification gap = sub.poll();
        assertEquals("stream/gap", gap.method());
        assertEquals(3, sub.lastTakenSeq(), "a notice has no seq");
        assertEquals(51, sub.poll().seq());
        assertNull(sub.poll(), "reported once");
    }
}
