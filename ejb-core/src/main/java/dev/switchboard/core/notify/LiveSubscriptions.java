package dev.switchboard.core.notify;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The hub's live subscriptions, indexed by user and thread, so that a notification is offered only
 * to the subscriptions it may match: with ten thousand subscribers each following a thread of its
 * own, a run's notifications reach its thread's few, not all ten thousand. (Offering every
 * notification to every subscription cost one synchronized call per subscriber and notification.)
 * A subscription to every thread of its user is offered all of that user's notifications; one
 * to some threads, those of its threads, and the notifications about no thread. The subscription
 * itself still decides ({@link Subscription#offer}), so offering it one more is harmless.
 * <p>
 * Not thread-safe: the hub changes and walks it under its feed lock; only {@link #size()} is read
 * anywhere. An offer can come back into it on the same thread — a subscriber cut off for falling
 * behind is unsubscribed by its transport from within the offer — so a removal made while an offer
 * walks the sets waits until the walk is over (removing at once broke the walk with a
 * {@code ConcurrentModificationException}, and the hub's pump, retrying with back-off, stalled).
 */
final class LiveSubscriptions {

    /** One user's subscriptions. */
    private static final class OfUser {
        final Set<Subscription> members = new LinkedHashSet<>();
        final Set<Subscription> everyThread = new LinkedHashSet<>();
        final Map<String, Set<Subscription>> byThread = new HashMap<>();
    }

    private final Map<String, OfUser> users = new HashMap<>();
    private volatile int size;
    /** Whether an offer is walking the sets; what is removed meanwhile waits in {@link #removedWhileOffering}. */
    private boolean offering;
    private List<Subscription> removedWhileOffering;

    void add(Subscription sub) {
        OfUser user = users.computeIfAbsent(sub.userKey(), u -> new OfUser());
        if (!user.members.add(sub)) {
            return;
        }
        size++;
        if (sub.threads() == null) {
            user.everyThread.add(sub);
        } else {
            for (String thread : sub.threads()) {
                user.byThread.computeIfAbsent(thread, t -> new LinkedHashSet<>()).add(sub);
            }
        }
    }

    void remove(Subscription sub) {
        if (offering) {
            if (removedWhileOffering == null) {
                removedWhileOffering = new ArrayList<>();
            }
            removedWhileOffering.add(sub);
            return;
        }
        OfUser user = users.get(sub.userKey());
        if (user == null || !user.members.remove(sub)) {
            return;
        }
        size--;
        if (sub.threads() == null) {
            user.everyThread.remove(sub);
        } else {
            for (String thread : sub.threads()) {
                Set<Subscription> following = user.byThread.get(thread);
                if (following != null && following.remove(sub) && following.isEmpty()) {
                    user.byThread.remove(thread);
                }
            }
        }
        if (user.members.isEmpty()) {
            users.remove(sub.userKey());
        }
    }

    int size() {
        return size;
    }

    /**
     * Offers {@code n} to each subscription it may match, in the order they went live; a
     * subscription {@code offer} answers false for (closed) is removed — once the walk is over, as
     * is one its transport removed from within the offer.
     */
    void offer(Notification n, Predicate<Subscription> offer) {
        OfUser user = users.get(n.userKey());
        if (user == null) {
            return;
        }
        offering = true;
        try {
            if (n.threadKey() == null) {
                offerAll(user.members, offer);
            } else {
                offerAll(user.everyThread, offer);
                Set<Subscription> following = user.byThread.get(n.threadKey());
                if (following != null) {
                    offerAll(following, offer);
                }
            }
        } finally {
            offering = false;
        }
        if (removedWhileOffering != null) {
            List<Subscription> removed = removedWhileOffering;
            removedWhileOffering = null;
            removed.forEach(this::remove);
        }
    }

    private void offerAll(Set<Subscription> subs, Predicate<Subscription> offer) {
        for (Subscription sub : subs) {
            if (!offer.test(sub)) {
                remove(sub); // deferred: the walk is on
            }
        }
    }

    /** Every live subscription (a copy), e.g. to close them all. */
    List<Subscription> all() {
        List<Subscription> all = new ArrayList<>(size);
        users.values().forEach(u -> all.addAll(u.members));
        return all;
    }

    void clear() {
        users.clear();
        size = 0;
    }
}
