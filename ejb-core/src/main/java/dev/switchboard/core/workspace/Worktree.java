package dev.switchboard.core.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.patch.FormatError;
import org.eclipse.jgit.patch.Patch;
import org.eclipse.jgit.patch.PatchApplier;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * One turn's worktree: the files of the thread's head in a directory of the turn's own. Tools work
 * on its files; at the turn's end {@link #changes} turns what is there into a commit on top of the
 * head (when anything changed) and {@link #close} takes the directory away.
 *
 * <p>Writing a thousand files costs more than a turn should wait on an ordinary disk, so a closed
 * worktree's directory is not deleted but kept as the thread's <em>checkout cache</em> with the
 * {@link FileStamp}s of its files, and the next turn's worktree is that directory moved into place
 * and brought to the head exactly: every file that is not the head's, or whose stamp does not
 * match (a turn wrote, deleted, renamed or re-permissioned it, or its stamp is racy), is removed
 * or written again from the head; directories left empty go, anything named {@code .git} goes.
 * What a failed or cancelled turn left there is gone before the next turn sees the directory. With
 * no cache (the first turn, after an instance died mid-turn, or after a turn that ran commands unconfined —
 * a process they left behind could write into a directory that moves on), the head is checked
 * out whole.
 * Files are compared with the head by their stamps and hashed only when those cannot be trusted,
 * so a turn that touched three files of a thousand hashes three. Empty directories are not kept
 * (git keeps files, not directories); nothing named {@code .git} is taken into a commit.
 */
public final class Worktree implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Worktree.class.getName());
    private static final Set<PosixFilePermission> EXECUTABLE = PosixFilePermissions.fromString("rwxr-xr-x");

    /**
     * Where a closed worktree is kept for the thread's next turn ({@code dir}, its files' stamps inside
     * at {@link #STAMPS}, where no tool reaches, so the two move as one), and a file whose modification
     * time tells the file system's clock ({@code clock}).
     */
    record Cache(Path dir, Path clock) {
    }

    /** The stamps of a kept directory's files, inside it: {@code .git} is out of the tools' reach and never committed. */
    static final String STAMPS = ".git/switchboard-stamps";

    private final Repository repository;
    private final ObjectId base;
    private final String head;
    private final Path dir;
    private final Cache cache;
    private final Confinement confinement;
    /** The head's submodule commits by path: kept as they are (they are not files of the worktree). */
    private final Map<String, ObjectId> gitlinks;
    /** The commands running in the worktree now (guarded by itself): stopped before its files are taken. */
    private final Set<Process> commands = new HashSet<>();
    /** No command may start any more: the turn is ending. */
    private boolean stopping;
    /**
     * A command ran here whose processes may outlive it (unconfined): the directory is not kept, a
     * process it left could still write into it.
     */
    private boolean processesMayOutlive;
    /** The files as the worktree was prepared, then as the last {@link #changes} found them. */
    private Map<String, FileStamp> stamps;

    private Worktree(Repository repository, ObjectId base, String head, Path dir, Cache cache,
            Map<String, FileStamp> stamps, Map<String, ObjectId> gitlinks) {
        this.repository = repository;
        this.base = base;
        this.head = head;
        this.dir = dir;
        this.cache = cache;
        this.stamps = stamps;
        this.gitlinks = gitlinks;
        this.confinement = new Confinement(dir);
    }

    /**
     * The worktree of {@code base} (null: nothing) at {@code dir}, which must not exist: the thread's
     * cache moved there and brought to {@code base}, or a whole checkout.
     */
    static Worktree prepare(Repository repository, ObjectId base, String head, Path dir, Cache cache) throws IOException {
        Map<String, FileStamp> known = Map.of();
        try {
            Files.move(cache.dir(), dir, StandardCopyOption.ATOMIC_MOVE); // taken whole, or not at all
            known = FileStamp.readAll(dir.resolve(STAMPS));
        } catch (NoSuchFileException noCache) {
            Files.createDirectory(dir);
        } catch (IOException e) {
            LOG.log(java.util.logging.Level.WARNING, "The checkout cache " + cache.dir() + " could not be taken; "
                    + "checking out whole", e);
            Workspaces.deleteTree(dir);
            Files.createDirectory(dir);
        }
        long statNs = FileStamp.fileSystemNow(cache.clock()); // before any file is looked at or written
        Map<String, FileStamp> prepared = new HashMap<>();
        Map<String, ObjectId> gitlinks = new HashMap<>();
        try (RevWalk commits = new RevWalk(repository); ObjectReader reader = repository.newObjectReader()) {
            Map<String, FileStamp> wanted = base == null ? Map.of()
                    : tree(repository, commits.parseCommit(base).getTree(), gitlinks);
            keepMatching(dir, wanted, known, prepared);
            Set<Path> made = new HashSet<>();
            for (Map.Entry<String, FileStamp> w : wanted.entrySet()) {
                if (prepared.containsKey(w.getKey())) {
                    continue;
                }
                Path file = dir.resolve(w.getKey());
                Path parent = file.getParent();
                if (made.add(parent)) {
                    Files.createDirectories(parent);
                }
                write(reader, w.getValue().blob(), w.getValue().mode(), file);
                prepared.put(w.getKey(), FileStamp.of(FileStamp.read(file), statNs, w.getValue().blob(),
                        w.getValue().mode()));
            }
        }
        return new Worktree(repository, base, head, dir, cache, prepared, gitlinks);
    }

    /** The head's files by path: blob and mode (the stamp's other fields unused). */
    private static Map<String, FileStamp> tree(Repository repository, RevTree root, Map<String, ObjectId> gitlinks)
            throws IOException {
        Map<String, FileStamp> files = new HashMap<>();
        try (TreeWalk walk = new TreeWalk(repository)) {
            walk.addTree(root);
            walk.setRecursive(true);
            while (walk.next()) {
                FileMode mode = walk.getFileMode(0);
                if (mode == FileMode.REGULAR_FILE || mode == FileMode.EXECUTABLE_FILE || mode == FileMode.SYMLINK) {
                    files.put(walk.getPathString(), FileStamp.wanted(walk.getObjectId(0), mode));
                } else if (mode == FileMode.GITLINK) {
                    gitlinks.put(walk.getPathString(), walk.getObjectId(0)); // a submodule's commit: kept, not checked out
                }
            }
        }
        return files;
    }

    /**
     * Removes from {@code dir} everything that is not one of the {@code wanted} files as a trusted
     * stamp says it is, and the directories that leaves empty; what stays goes into {@code kept}.
     */
    private static void keepMatching(Path dir, Map<String, FileStamp> wanted, Map<String, FileStamp> known,
            Map<String, FileStamp> kept) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
                d.toFile().setWritable(true, true); // a command may have taken its own permissions away
                d.toFile().setExecutable(true, true);
                d.toFile().setReadable(true, true);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                String path = slashed(dir.relativize(file));
                FileStamp want = wanted.get(path);
                FileStamp stamp = known.get(path);
                if (want != null && stamp != null && stamp.blob().equals(want.blob()) && stamp.mode() == want.mode()
                        && stamp.matches(FileStamp.read(file))) {
                    kept.put(path, stamp);
                } else {
                    Files.delete(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                if (!d.equals(dir)) {
                    try (var left = Files.list(d)) {
                        if (left.findAny().isEmpty()) {
                            Files.delete(d);
                        }
                    }
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void write(ObjectReader reader, ObjectId blob, FileMode mode, Path file) throws IOException {
        if (mode == FileMode.SYMLINK) {
            Files.createSymbolicLink(file, Path.of(new String(reader.open(blob).getBytes(), StandardCharsets.UTF_8)));
            return;
        }
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
            reader.open(blob, Constants.OBJ_BLOB).copyTo(out);
        }
        if (mode == FileMode.EXECUTABLE_FILE) {
            Files.setPosixFilePermissions(file, EXECUTABLE);
        }
    }

    public Path dir() {
        return dir;
    }

    /** The line's head the worktree was checked out at ({@link Workspaces#START} for the start). */
    public String head() {
        return head;
    }

    /** The value of the trailer line starting with {@code key} in the head commit's message; null when none. */
    public String headMessageTrailer(String key) {
        if (base == null) {
            return null;
        }
        try (RevWalk commits = new RevWalk(repository)) {
            return commits.parseCommit(base).getFullMessage().lines().filter(l -> l.startsWith(key))
                    .map(l -> l.substring(key.length()).strip()).reduce((a, b) -> b).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Runs an allowed command ({@link CommandPolicy#check}) in the worktree ({@link CommandRun});
     * one still running when the worktree is closed — its turn was cancelled meanwhile — is killed
     * with what it started before the directory is taken away, so it cannot write into a later turn's.
     */
    public CommandRun.Result run(List<String> argv, Sandbox sandbox, java.time.Duration timeout, int outputLimit) {
        return CommandRun.run(argv, dir, sandbox, timeout, outputLimit, new CommandRun.Tracker() {
            @Override
            public boolean started(Process process) {
                synchronized (commands) {
                    if (stopping) {
                        return false;
                    }
                    commands.add(process);
                    processesMayOutlive |= !sandbox.endsEveryProcess();
                    return true;
                }
            }

            @Override
            public void ended(Process process) {
                synchronized (commands) {
                    commands.remove(process);
                }
            }
        });
    }

    /**
     * Kills the commands still running here (the turn ended while they ran) with what they started,
     * and lets no other start: what is in the worktree from now on is what the turn left.
     */
    public void stopCommands() {
        List<Process> running;
        synchronized (commands) {
            stopping = true;
            running = List.copyOf(commands);
        }
        for (Process command : running) {
            CommandRun.kill(command);
            command.onExit().completeOnTimeout(command, 2, java.util.concurrent.TimeUnit.SECONDS).join();
        }
    }

    /** The rule that keeps tools' paths inside this worktree. */
    public Confinement confinement() {
        return confinement;
    }

    /**
     * What the turn changed: when the files differ from the head's, a commit of them whose parent is
     * the head, with {@code message}, the change set's paths and its diff; else no commit.
     */
    public ChangeSet changes(String message, Instant when) {
        try (ObjectInserter inserter = repository.newObjectInserter(); RevWalk commits = new RevWalk(repository)) {
            ObjectId tree = snapshot(inserter);
            ObjectId baseTree = base == null ? null : commits.parseCommit(base).getTree().getId();
            boolean unchanged = baseTree == null ? tree.equals(emptyTree(inserter)) : tree.equals(baseTree);
            if (unchanged) {
                inserter.flush();
                return new ChangeSet(head, null, List.of(), "");
            }
            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(tree);
            if (base != null) {
                commit.setParentId(base);
            }
            PersonIdent who = new PersonIdent("Switchboard", "switchboard@localhost", when, ZoneOffset.UTC);
            commit.setAuthor(who);
            commit.setCommitter(who);
            commit.setMessage(message.endsWith("\n") ? message : message + "\n");
            ObjectId made = inserter.insert(commit);
            inserter.flush();
            ByteArrayOutputStream diff = new ByteArrayOutputStream();
            List<ChangeSet.FileChange> files = new ArrayList<>();
            try (DiffFormatter formatter = new DiffFormatter(diff)) {
                formatter.setRepository(repository);
                List<DiffEntry> entries = formatter.scan(baseTree, tree);
                for (DiffEntry entry : entries) {
                    files.add(switch (entry.getChangeType()) {
                        case ADD, COPY -> new ChangeSet.FileChange(entry.getNewPath(), "A");
                        case DELETE -> new ChangeSet.FileChange(entry.getOldPath(), "D");
                        default -> new ChangeSet.FileChange(entry.getNewPath(), "M");
                    });
                }
                formatter.format(entries);
            }
            files.sort(java.util.Comparator.comparing(ChangeSet.FileChange::path));
            return new ChangeSet(head, made.name(), files, diff.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take the changes of " + dir, e);
        }
    }

    /** The tree of what is in the worktree now, its new blobs written. */
    private ObjectId snapshot(ObjectInserter inserter) throws IOException {
        TreeMap<String, DirCacheEntry> entries = new TreeMap<>();
        Map<String, FileStamp> found = new HashMap<>();
        long statNs = FileStamp.fileSystemNow(cache.clock()); // before any file is looked at
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
                return d.getFileName().toString().equals(".git") && !d.equals(dir)
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                String path = slashed(dir.relativize(file));
                if (path.equals(".git") || path.endsWith("/.git")) {
                    return FileVisitResult.CONTINUE;
                }
                FileMode mode;
                ObjectId blob;
                if (attributes.isSymbolicLink()) {
                    if (leadsOutside(file)) {
                        return notCommitted(path);
                    }
                    mode = FileMode.SYMLINK;
                    blob = inserter.insert(Constants.OBJ_BLOB,
                            Files.readSymbolicLink(file).toString().getBytes(StandardCharsets.UTF_8));
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
     * Applies a unified diff ({@code git diff} or {@code diff -u} format, several files at once) to
     * the files as they are now: all of it or, when any hunk does not fit, none of it. Every path it
     * names must pass the worktree's {@link Confinement}. Returns the paths it changed.
     *
     * @throws WorkspaceRefusal saying why the diff cannot be read, is refused, or does not apply
     */
    public List<String> applyDiff(String diff) {
        Patch patch = new Patch();
        byte[] bytes = UnifiedDiffs.withGitHeaders(diff).getBytes(StandardCharsets.UTF_8);
        patch.parse(bytes, 0, bytes.length);
        List<FormatError> errors = patch.getErrors().stream()
                .filter(e -> e.getSeverity() == FormatError.Severity.ERROR).toList();
        if (!errors.isEmpty()) {
            throw new WorkspaceRefusal("the diff cannot be read: " + errors.get(0).getMessage()
                    + (errors.get(0).getLineText() == null ? "" : " at: " + errors.get(0).getLineText().strip()));
        }
        if (patch.getFiles().isEmpty()) {
            throw new WorkspaceRefusal("the diff names no file (expected --- a/<path> and +++ b/<path> lines, then hunks)");
        }
        for (FileHeader file : patch.getFiles()) {
            for (String path : new String[] {file.getOldPath(), file.getNewPath()}) {
                if (path != null && !path.equals(DiffEntry.DEV_NULL)) {
                    confinement.resolve(path);
                }
            }
        }
        try (ObjectInserter inserter = repository.newObjectInserter(); RevWalk walk = new RevWalk(repository);
                ObjectReader reader = repository.newObjectReader()) {
            ObjectId now = snapshot(inserter);
            inserter.flush(); // the applier reads the files' blobs back
            RevTree before = walk.parseTree(now);
            PatchApplier.Result result = new PatchApplier(repository, before, inserter).applyPatch(patch);
            if (!result.getErrors().isEmpty()) {
                throw new WorkspaceRefusal("the diff does not apply, nothing was changed: " + result.getErrors().stream()
                        .map(Object::toString).map(String::strip).collect(java.util.stream.Collectors.joining("; ")));
            }
            inserter.flush();
            Map<String, TreeWalk> after = new HashMap<>();
            for (String path : result.getPaths()) { // every change is checked before any is written
                confinement.resolve(path);
                TreeWalk found = TreeWalk.forPath(repository, reader, path, result.getTreeId());
                after.put(path, found);
                if (found != null && found.getFileMode(0) == FileMode.SYMLINK) {
                    confinement.checkLink(path, new String(reader.open(found.getObjectId(0)).getBytes(),
                            StandardCharsets.UTF_8));
                }
            }
            for (String path : result.getPaths()) {
                Path file = confinement.resolve(path);
                TreeWalk found = after.get(path);
                Files.deleteIfExists(file);
                if (found == null) {
                    continue;
                }
                Files.createDirectories(file.getParent());
                write(reader, found.getObjectId(0), found.getFileMode(0), file);
            }
            return List.copyOf(result.getPaths());
        } catch (IOException e) {
            throw new WorkspaceRefusal("the diff could not be applied: " + e.getMessage());
        }
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

    /** Removes the worktree's directory; its commit, if it made one, stays in the repository. */
    @Override
    public void close() {
        stopCommands();
        try {
            boolean kept = false;
            if (!processesMayOutlive) {
                Files.createDirectories(dir.resolve(STAMPS).getParent());
                FileStamp.write(dir.resolve(STAMPS), stamps);
                try {
                    Files.move(dir, cache.dir(), StandardCopyOption.ATOMIC_MOVE);
                    kept = true;
                } catch (IOException taken) {
                    LOG.fine(() -> "The thread's checkout cache is already there; " + dir + " is removed instead");
                }
            }
            if (!kept) {
                Workspaces.deleteTree(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take the worktree " + dir + " away", e);
        } finally {
            repository.close();
        }
    }

    private static ObjectId emptyTree(ObjectInserter inserter) {
        return inserter.idFor(Constants.OBJ_TREE, new byte[0]);
    }

    private static String slashed(Path relative) {
        return relative.toString().replace(java.io.File.separatorChar, '/');
    }
}
