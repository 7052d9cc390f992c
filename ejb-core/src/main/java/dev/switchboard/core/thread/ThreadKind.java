package dev.switchboard.core.thread;

/**
 * Who a thread is for, as a list of threads shows it: people's and integrations' threads are listed
 * by default, internal ones (the server's own bookkeeping) only when asked for. The rule is
 * {@link ThreadKinds}'s.
 */
public enum ThreadKind {
    /** A conversation a person (or a client acting for one) started: a chat, a message, a turn. */
    PERSON("person"),
    /** The lane of an integration's events (ingress: webhooks, generic events, timers). */
    INTEGRATION("integration"),
    /** A thread the server keeps for an API's own sake: an Open Responses chain, a delegation path. */
    INTERNAL("internal");

    private final String wire;

    ThreadKind(String wire) {
        this.wire = wire;
    }

    /** The name clients see ({@code thread/list}'s {@code kind}). */
    public String wire() {
        return wire;
    }
}
