/**
 * A thread's conversation history: its items in order (Open Responses item shapes), written in
 * the transaction that records a run's result ({@link dev.switchboard.core.history.ThreadItems}),
 * read back by the thread's readers and, bounded ({@link dev.switchboard.core.history.HistorySettings}),
 * handed to every engine call of the thread. {@link dev.switchboard.core.history.ConversationItems}
 * says what a run contributes.
 */
package dev.switchboard.core.history;
