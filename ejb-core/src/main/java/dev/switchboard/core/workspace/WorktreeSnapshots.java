package dev.switchboard.core.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * What is in a worktree now, as a git tree. Files are compared by their {@link FileStamp}s and
 * hashed only when those cannot be trusted, so a turn that touched three files of a thousand
 * hashes three; the stamps each look finds are the next look's. Empty directories are not kept
 * (git keeps files, not directories); nothing named {@code .git} is taken into a tree, nor a hard
 * link, nor a link leading outside the worktree that the turn made or changed — a link the head
 * already held, as it was, is the user's own and stays exactly as it was (tools refuse to go
 * through it all the same). The head's submodule commits are kept as they are.
 */
final class WorktreeSnapshots {

    /** The worktree's log: what a snapshot leaves out is said of the worktree. */
    private static final Logger LOG = Logger.getLogger(Worktree.class.getName());

    private final Path dir;
    private final Path clock;
    private final Confinement confinement;
    /** The head's submodule commits by path: kept as they are (they are not files of the worktree). */
    private final Map<String, ObjectId> gitlinks;
    /** The head's symbolic links by path, their targets' blobs: one that leads outside is kept while unchanged. */
    private final Map<String, ObjectId> headLinks;
    /** The files as the worktree was prepared, then as the last {@link #take} found them. */
    private Map<String, FileStamp> stamps;

    /** @param clock the file whose modification time tells the file system's clock ({@link CheckoutCache#clock}) */
    WorktreeSnapshots(Path dir, Path clock, Confinement confinement, Map<String, ObjectId> gitlinks,
            Map<String, FileStamp> stamps) {
        this.dir = dir;
        this.clock = clock;
        this.confinement = confinement;
        this.gitlinks = gitlinks;
        this.stamps = stamps;
        this.headLinks = new HashMap<>();
        stamps.forEach((path, stamp) -> {
            if (stamp.mode() == FileMode.SYMLINK) {
                headLinks.put(path, stamp.blob());
            }
        });
    }

    /** The stamps of the worktree's files as the last look found them. */
    Map<String, FileStamp> stamps() {
        return stamps;
    }

    /** The tree of what is in the worktree now, its new blobs written. */
    ObjectId take(ObjectInserter inserter) throws IOException {
        TreeMap<String, DirCacheEntry> entries = new TreeMap<>();
        Map<String, FileStamp> found = new HashMap<>();
        long statNs = FileStamp.fileSystemNow(clock); // before any file is looked at
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
                return d.getFileName().toString().equals(".git") && !d.equals(dir)
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                String path = Checkout.slashed(dir.relativize(file));
                if (path.equals(".git") || path.endsWith("/.git")) {
                    return FileVisitResult.CONTINUE;
                }
                FileMode mode;
                ObjectId blob;
                if (attributes.isSymbolicLink()) {
                    byte[] target = Files.readSymbolicLink(file).toString().getBytes(StandardCharsets.UTF_8);
                    mode = FileMode.SYMLINK;
                    blob = inserter.idFor(Constants.OBJ_BLOB, target);
                    if (!blob.equals(headLinks.get(path))) {
                        if (leadsOutside(file)) {
                            return notCommitted(path);
                        }
                        blob = inserter.insert(Constants.OBJ_BLOB, target);
                    }
                } else if (attributes.isRegularFile()) {
                    Map<String, Object> now = FileStamp.read(file); // one look at the file for all that follows
                    if (FileStamp.hardLinked(now)) {
                        return notCommitted(path);
                    }
                    mode = FileStamp.executable(now) ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE;
                    FileStamp was = stamps.get(path);
                    if (was != null && was.mode() == mode && was.matches(now)) {
                        blob = was.blob();
                        found.put(path, was);
                    } else {
                        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                            blob = inserter.insert(Constants.OBJ_BLOB, (Long) now.get("size"), in);
                        }
                        found.put(path, FileStamp.of(now, statNs, blob, mode));
                    }
                } else {
                    return FileVisitResult.CONTINUE; // sockets, pipes: nothing a commit can hold
                }
                DirCacheEntry entry;
                try {
                    entry = new DirCacheEntry(path);
                } catch (IllegalArgumentException notAGitPath) {
                    LOG.warning(() -> "Not committed: " + path + " in " + dir + " is not a path git can keep");
                    return FileVisitResult.CONTINUE;
                }
                entry.setFileMode(mode);
                entry.setObjectId(blob);
                entries.put(path, entry);
                return FileVisitResult.CONTINUE;
            }
        });
        for (Map.Entry<String, ObjectId> gitlink : gitlinks.entrySet()) {
            if (!entries.containsKey(gitlink.getKey())) {
                DirCacheEntry entry = new DirCacheEntry(gitlink.getKey());
                entry.setFileMode(FileMode.GITLINK);
                entry.setObjectId(gitlink.getValue());
                entries.put(gitlink.getKey(), entry);
            }
        }
        DirCache index = DirCache.newInCore();
        DirCacheBuilder builder = index.builder();
        entries.values().forEach(builder::add);
        builder.finish();
        stamps = found; // symlinks are hashed each time: they are few and small
        return index.writeTree(inserter);
    }

    /**
     * Whether the symbolic link {@code file} leads out of the worktree (or into {@code .git}),
     * followed all the way. Such a link — and a hard link, another name of a file elsewhere — is
     * never committed: whoever checks the history out would get a link to their own files, or the
     * content of a file that was never the workspace's.
     */
    private boolean leadsOutside(Path file) throws IOException {
        try {
            confinement.checkLink(dir.relativize(file).toString(), Files.readSymbolicLink(file).toString());
            return false;
        } catch (WorkspaceRefusal outside) {
            return true;
        }
    }

    private FileVisitResult notCommitted(String path) {
        LOG.warning(() -> "Not committed: " + path + " in " + dir + " is a link to outside the worktree");
        return FileVisitResult.CONTINUE;
    }
}
