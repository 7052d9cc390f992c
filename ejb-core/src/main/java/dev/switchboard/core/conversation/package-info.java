/**
 * Conversations for people (IronClaw's session model, {@code ../shared/specs/ironclaw-sessions.md}):
 * one session per user, threads reached from several channels, and the interactive life of a
 * thread — what a message means ({@link dev.switchboard.core.conversation.Submissions}), who may
 * resolve an approval ({@link dev.switchboard.core.conversation.ApprovalAuthority}), how long an
 * auth prompt waits ({@link dev.switchboard.core.conversation.PendingAuth}), undo and redo
 * ({@link dev.switchboard.core.conversation.UndoLine}) and when a context needs compacting
 * ({@link dev.switchboard.core.conversation.ContextMonitor}). These are plain rules; the services
 * that persist and run them build on turns and runs.
 */
package dev.switchboard.core.conversation;
