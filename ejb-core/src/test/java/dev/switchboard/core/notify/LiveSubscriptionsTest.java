package dev.switchboard.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LiveSubscriptionsTest {

    private static final Subscription.Sink SINK = new Subscription.Sink() {
        @Override
        public void available() {
        }

        @Override
        public void overflow(long lastSentSeq) {
        }
    };

    private final LiveSubscriptions live = new LiveSubscriptions();

    private static Notification n(long seq, String user, String thread) {
        return new Notification(seq, user, thread, "turn/started", "{}", 0);
    }

    private static Subscription sub(String user, String... threads) {
        return new Subscription(user, threads.length == 0 ? null : Set.of(threads), 10, SINK);
    }

    private List<Subscription> offered(Notification n) {
        List<Subscription> offered = new ArrayList<>();
        live.offer(n, s -> offered.add(s));
        return offered;
    }

    @Test
    void aNotificationIsOfferedToItsUsersEveryThreadSubscriptionsAndItsThreadsFollowersOnly() {
        Subscription everything = sub("alice");
        Subscription onA = sub("alice", "a");
        Subscription onAB = sub("alice", "a", "b");
        Subscription bobs = sub("bob");
        List.of(everything, onA, onAB, bobs).forEach(live::add);
        assertEquals(4, live.size());

        assertEquals(List.of(everything, onA, onAB), offered(n(1, "alice", "a")));
        assertEquals(List.of(everything, onAB), offered(n(2, "alice", "b")));
        assertEquals(List.of(everything), offered(n(3, "alice", "c")), "no one else follows c");
        assertEquals(List.of(bobs), offered(n(4, "bob", "a")), "the thread key is per user");
        assertEquals(List.of(), offered(n(5, "carol", "a")));
        assertEquals(List.of(everything, onA, onAB), offered(n(6, "alice", null)),
                "a notification about no thread goes to all of the user's subscriptions, each once");
    }

    @Test
    void aSubscriptionThatRefusesIsRemovedEverywhereAndAnUnsubscribedOneIsNoLongerOffered() {
        Subscription onAB = sub("alice", "a", "b");
        Subscription everything = sub("alice");
        live.add(onAB);
        live.add(everything);
        live.add(everything); // once only
        assertEquals(2, live.size());

        live.offer(n(1, "alice", "a"), s -> s != onAB);
        assertEquals(1, live.size());
        assertEquals(List.of(everything), offered(n(2, "alice", "b")), "removed from every thread it followed");

        live.remove(everything);
        live.remove(everything);
        assertEquals(0, live.size());
        assertTrue(offered(n(3, "alice", null)).isEmpty());
        assertTrue(live.all().isEmpty());
    }

    /**
     * A subscriber cut off for falling behind is unsubscribed by its transport from within the offer
     * (the WebSocket's overflow closes its stream): the walk goes on to the others, and the removal
     * takes effect once it is over — for a subscription of every thread and one of some threads.
     */
    @Test
    void aSubscriptionRemovedFromWithinTheOfferIsRemovedOnceTheOfferIsOverAndTheOthersStillGetIt() {
        Subscription first = sub("alice");
        Subscription second = sub("alice");
        Subscription onA = sub("alice", "a");
        Subscription last = sub("alice", "a");
        List.of(first, second, onA, last).forEach(live::add);
        List<Subscription> offered = new ArrayList<>();
        live.offer(n(1, "alice", "a"), s -> {
            offered.add(s);
            if (s == first || s == onA) {
                live.remove(s); // as its transport does when it was cut off
                return false;
            }
            return true;
        });
        assertEquals(List.of(first, second, onA, last), offered, "every subscription offered, in order");
        assertEquals(2, live.size());
        assertEquals(List.of(second, last), offered(n(2, "alice", "a")), "the removed ones are gone everywhere");
    }

    @Test
    void tenThousandFollowersOfOneThreadEachAreOfferedOnlyTheirThreads() {
        List<Subscription> subs = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Subscription s = sub("local", "t" + i);
            subs.add(s);
            live.add(s);
        }
        assertEquals(List.of(subs.get(4242)), offered(n(1, "local", "t4242")));
        assertEquals(10_000, live.all().size());
    }
}
