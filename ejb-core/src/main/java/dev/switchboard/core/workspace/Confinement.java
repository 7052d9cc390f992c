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
 * (writing there would run code at the next commit: hooks). A file that is a hard link — more
 * than one name for it, or not on the worktree's device — is refused too: its other name may be
 * outside, and reading or writing it would read or write that file. The check reads the file system
 * as it is now; a tool then acts on the path it returns (and writes by replacing, never through).
 */
public final class Confinement {

    /** Links followed in a row before a path is refused (the kernel's own limit is 40). */
    static final int MAX_LINKS = 40;

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
        checkHardLink(target, shown);
        return target;
    }

    /** Refuses an existing file with another name somewhere (a hard link), or on another device than the worktree. */
    private void checkHardLink(Path target, String shown) {
        if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            int links = (Integer) Files.getAttribute(target, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
            Object device = Files.getAttribute(target, "unix:dev", LinkOption.NOFOLLOW_LINKS);
            if (links > 1 || !device.equals(Files.getAttribute(root, "unix:dev"))) {
                throw new WorkspaceRefusal(shown + " is a hard link to a file that may be outside the workspace:"
                        + " tools do not read or write through it");
            }
        } catch (IOException e) {
            throw new WorkspaceRefusal("cannot look at " + shown + ": " + e.getMessage());
        }
    }

    /** The path relative to the worktree, as tools show it. */
    public String shown(Path inside) {
        return root.relativize(inside).toString();
    }

    /**
     * Every existing step from the root to {@code target} must stay inside — and out of {@code .git}
     * — once its links are followed all the way: a link to a link, a link through a dangling link,
     * a link whose target climbs with {@code ..}.
     */
    private void checkLinks(Path target, String shown) {
        Path step = root;
        for (Path segment : root.relativize(target)) {
            step = step.resolve(segment);
            if (Files.isSymbolicLink(step)) {
                Path real = locate(step, 0);
                if (!real.startsWith(root)) {
                    throw new WorkspaceRefusal(shown + " leads outside the workspace through the link " + shown(step));
                }
                for (Path inside : root.relativize(real)) {
                    if (inside.toString().equals(".git")) {
                        throw new WorkspaceRefusal(shown + " leads into .git through the link " + shown(step));
                    }
                }
            } else if (!Files.exists(step, LinkOption.NOFOLLOW_LINKS)) {
                return; // nothing further exists: what a tool creates there stays inside
            }
        }
    }

    /**
     * Where a link leads, found the way the kernel does — each name from the root, each link replaced
     * by its target, {@code ..} taken from the real directory — and a part that does not exist taken
     * as named (so a dangling link is judged by where it would lead).
     */
    static Path locate(Path link, int hops) {
        if (hops > MAX_LINKS) {
            throw new WorkspaceRefusal("too many links in a row at " + link.getFileName());
        }
        Path target;
        try {
            target = Files.readSymbolicLink(link);
        } catch (IOException e) {
            throw new WorkspaceRefusal("cannot read the link " + link.getFileName());
        }
        return walk(link.getParent().resolve(target), hops + 1);
    }

    private static Path walk(Path path, int hops) {
        Path current = path.getRoot();
        for (Path name : path) {
            String n = name.toString();
            if (n.equals(".") || n.isEmpty()) {
                continue;
            }
            if (n.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
                continue;
            }
            Path next = current.resolve(n);
            current = Files.isSymbolicLink(next) ? locate(next, hops) : next;
        }
        return current;
    }

    /** Refuses a link at {@code path} (inside) to {@code target} that would lead outside or into {@code .git}. */
    public void checkLink(String path, String target) {
        Path at = resolve(path);
        Path real = walk(at.getParent().resolve(target), 1);
        if (!real.startsWith(root)) {
            throw new WorkspaceRefusal("a link at " + path + " to " + target + " would lead outside the workspace");
        }
        for (Path inside : root.relativize(real)) {
            if (inside.toString().equals(".git")) {
                throw new WorkspaceRefusal("a link at " + path + " to " + target + " would lead into .git");
            }
        }
    }
}
