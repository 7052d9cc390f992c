package dev.switchboard.core.thread;

/** A thread as a list shows it: its row id, key, creation time and stored verdict on being internal. */
public record ThreadRow(long id, String threadKey, long createdAt, boolean internal) {

    public ThreadKind kind() {
        return ThreadKinds.listed(threadKey, internal);
    }
}
