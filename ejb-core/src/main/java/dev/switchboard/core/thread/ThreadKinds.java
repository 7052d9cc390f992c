package dev.switchboard.core.thread;

/**
 * Which {@link ThreadKind} a thread is, from what is stored with it and fixed at its creation: its
 * owner and its key. A key prefix, not the kind of the thread's runs, decides, because the doors
 * that make internal threads name them so and nothing else does by default ({@code responses/…}
 * is what {@code POST /v1/responses} names a new chain, {@code event:…} what ingress routes an
 * event to), because a thread's runs can come through several doors (a chat thread also takes
 * {@code POST /v1/messages}, {@code main} takes events and turns), and because a rule on the key
 * is one a reader of the list can check by eye. Delegation's path lanes belong to a server-owned
 * user, {@code ~agents}, whose name no authenticated user can have ({@code ~} is outside user
 * names): every thread of such an owner is internal.
 *
 * <p>A list filters on the verdict stored when the thread was created ({@code threads.is_internal},
 * V27, indexed with the owner and key so that a page of the listed threads is one index range
 * however many internal ones there are): change this rule only together with a migration that
 * marks the existing rows again.
 */
public final class ThreadKinds {

    /** The key prefix of the threads {@code POST /v1/responses} makes: one per chain of responses. */
    public static final String RESPONSES_PREFIX = "responses/";
    /** The key prefix ingress gives an event's lane when the event names none. */
    public static final String EVENT_PREFIX = "event:";
    /** The first character of the users the server owns (no authenticated user name has it). */
    public static final String SERVER_USER_PREFIX = "~";

    private ThreadKinds() {
    }

    /** The kind of the thread {@code threadKey} of {@code userKey}. */
    public static ThreadKind of(String userKey, String threadKey) {
        return listed(threadKey, isInternal(userKey, threadKey));
    }

    /** True when a list leaves the thread out unless asked for internal threads. */
    public static boolean isInternal(String userKey, String threadKey) {
        return userKey.startsWith(SERVER_USER_PREFIX) || threadKey.startsWith(RESPONSES_PREFIX);
    }

    /**
     * The kind a list shows for a stored thread: its stored verdict decides whether it is internal
     * (so that what a list filters and what it shows never disagree), its key what else it is.
     */
    public static ThreadKind listed(String threadKey, boolean storedInternal) {
        if (storedInternal) {
            return ThreadKind.INTERNAL;
        }
        return threadKey.startsWith(EVENT_PREFIX) ? ThreadKind.INTEGRATION : ThreadKind.PERSON;
    }
}
