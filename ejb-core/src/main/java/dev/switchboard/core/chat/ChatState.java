package dev.switchboard.core.chat;

import dev.switchboard.core.history.ContextWindow;

/**
 * What a chat thread's undo checkpoint restores: its context window, and where its workspace line
 * was ({@code workspace}: the head commit, {@code ""} its start, null when the thread had no
 * workspace then — going back to it leaves the files alone).
 */
public record ChatState(ContextWindow context, String workspace) {
}
