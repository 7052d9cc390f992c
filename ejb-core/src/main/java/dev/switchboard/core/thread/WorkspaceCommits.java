package dev.switchboard.core.thread;

import java.util.Set;

/**
 * Commits of a thread's workspace that something stored names, so that pruning never drops them
 * ({@link WorkspacePruner}): the thread's head and its recorded turns ({@link ThreadWorkspaces}),
 * and what a feature keeps of its own — a conversation's undo and redo checkpoints — each feature
 * contributing its own as a bean of this type.
 */
public interface WorkspaceCommits {

    /** The commits of thread {@code threadId}'s workspace this source names. */
    Set<String> named(long threadId);
}
