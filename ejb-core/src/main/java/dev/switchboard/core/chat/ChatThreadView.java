package dev.switchboard.core.chat;

import java.util.UUID;

/**
 * A chat thread as its owner sees it; {@code pending}: the tool approval it waits for, or null;
 * {@code pendingAuth}: the credential it waits for, as clients are shown it, or null. {@code state}: the label of its
 * {@link dev.switchboard.core.conversation.ThreadState}; {@code title}: the start of its first message (null before one).
 */
public record ChatThreadView(UUID threadId, String state, int activeTurns, String title, String sourceChannel,
        long createdAt, long updatedAt, boolean active, ChatPending pending,
        jakarta.json.JsonObject pendingAuth) {

    /** {@code /resume}'s answer: the threads, most recently active first, one per line. */
    public static String listing(java.util.List<ChatThreadView> threads) {
        if (threads.isEmpty()) {
            return "No threads.";
        }
        StringBuilder text = new StringBuilder("Threads:");
        for (ChatThreadView t : threads) {
            text.append("\n- ").append(t.threadId()).append(" (").append(t.state()).append(')');
            if (t.title() != null) {
                text.append(' ').append(t.title().replaceAll("\\s+", " "));
            }
            if (t.active()) {
                text.append(" [active]");
            }
        }
        return text.toString();
    }
}
