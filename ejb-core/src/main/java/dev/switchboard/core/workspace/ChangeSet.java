package dev.switchboard.core.workspace;

import java.util.List;

/**
 * What one turn changed in its worktree, against the line's head it started from.
 *
 * @param base the commit the turn's worktree was checked out at ({@link Workspaces#START}: the
 *        thread's starting point)
 * @param commit the commit holding the change set, its parent {@code base}; null when nothing changed
 * @param files the paths added, modified or deleted, each with its change ({@code A}, {@code M},
 *        {@code D}), sorted
 * @param diff the change set as a unified diff ({@code git diff} format; binary files named only)
 */
public record ChangeSet(String base, String commit, List<FileChange> files, String diff) {

    /** One changed path: {@code A} added, {@code M} modified (content or mode), {@code D} deleted. */
    public record FileChange(String path, String change) {
    }

    public ChangeSet {
        files = List.copyOf(files);
    }

    public boolean changed() {
        return commit != null;
    }

    /** The line's head after a turn that made this change set. */
    public String head() {
        return commit != null ? commit : base;
    }
}
