package dev.switchboard.core.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Keeps a tool's paths inside one worktree. A requested path is relative to the worktree; it is
 * refused when it is absolute, when it leads out of the worktree by {@code ..}, when it passes
 * through or ends at a symbolic link whose target lies outside (an existing link is followed to
 * its real location, a dangling one to where it points), and when it reaches into {@code .git}
 * (writing there would run code at the next commit: hooks). The check reads the file system as it
 * is now; a tool then acts on the path it returns.
 */
public final class Confinement {

    private final Path root;

    /** {@code worktree} must exist; it is taken at its real location. */
    public Confinement(Path worktree) {
        try {
            this.root = worktree.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("no worktree at " + worktree, e);
        }
    }

    public Path root() {
        return root;
    }

    /** The absolute path {@code requested} names inside the worktree, or a {@link WorkspaceRefusal} saying why not. */
    public Path resolve(String requested) {
        if (requested == null || requested.isBlank()) {
            throw new WorkspaceRefusal("a path is required");
        }
        if (requested.indexOf('\0') >= 0) {
            throw new WorkspaceRefusal("a path may not contain a NUL character");
        }
        String shown = requested.length() > 200 ? requested.substring(0, 200) + "…" : requested;
        Path relative;
        try {
            relative = Path.of(requested);
        } catch (InvalidPathException e) {
            throw new WorkspaceRefusal("not a path: " + shown);
        }
        if (relative.isAbsolute() || requested.startsWith("/") || requested.startsWith("\\")
                || requested.matches("^[A-Za-z]:.*")) {
            throw new WorkspaceRefusal("absolute paths are not allowed: " + shown + " (give a path inside the workspace)");
        }
        Path target = root.resolve(relative).normalize();
        if (!target.startsWith(root)) {
            throw new WorkspaceRefusal(shown + " is outside the workspace");
        }
        for (Path segment : root.relativize(target)) {
            if (segment.toString().equals(".git")) {
                throw new WorkspaceRefusal(shown + " is inside .git, which tools may not touch");
            }
        }
        checkLinks(target, shown);
        return target;
    }

    /** The path relative to the worktree, as tools show it. */
    public String shown(Path inside) {
        return root.relativize(inside).toString();
    }

    /** Every existing step from the root to {@code target} must stay inside once links are followed. */
    private void checkLinks(Path target, String shown) {
        Path step = root;
        for (Path segment : root.relativize(target)) {
            step = step.resolve(segment);
            if (Files.isSymbolicLink(step)) {
                Path real = linkTarget(step);
                if (!real.startsWith(root)) {
                    throw new WorkspaceRefusal(shown + " leads outside the workspace through the link "
                            + shown(step));
                }
            } else if (!Files.exists(step, LinkOption.NOFOLLOW_LINKS)) {
                return; // nothing further exists: what a tool creates there stays inside
            }
        }
    }

    /** Where a link leads: its real location, or for a dangling link where it points. */
    private static Path linkTarget(Path link) {
        try {
            return link.toRealPath();
        } catch (IOException dangling) {
            try {
                return link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
            } catch (IOException e) {
                throw new WorkspaceRefusal("cannot read the link " + link.getFileName());
            }
        }
    }
}
