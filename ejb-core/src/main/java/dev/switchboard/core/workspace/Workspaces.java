package dev.switchboard.core.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * The threads' workspaces under one root: per thread, a bare git repository ({@code t<id>/repo.git},
 * made on first use — empty, or cloned from a configured local repository), its per-turn worktrees
 * ({@code t<id>/worktrees/<run>.<attempt>}) and each turn's record ({@code t<id>/turns/<run>/}).
 *
 * <p>Which commit is a thread's head — its <em>line</em> — is kept by the caller (the database,
 * moved in the transaction that ends a turn), not by a ref here: a commit made by an attempt whose
 * end was never recorded is then simply unreachable, and the next attempt starts again from the
 * recorded head. {@link #mirror} points {@code refs/heads/line} at the head each turn starts from
 * (and after an undo), for people who browse the repository with git. Plain Java on JGit: there is no git command to install; JGit has no
 * linked worktrees, so a worktree is a checkout of the head's files into a fresh directory that
 * shares the thread's object store.
 */
public final class Workspaces {

    /** The head of a thread that has made no commit yet: its starting point (empty, or the cloned source). */
    public static final String START = "";
    /** The ref a cloned source's head is kept under: the thread's starting point. */
    static final String START_REF = "refs/switchboard/start";
    static final String LINE_REF = "refs/heads/line";
    /** Where {@link #prune} pins the commits the database names, so that garbage collection keeps them. */
    static final String NAMED_REFS = "refs/switchboard/named/";

    private static final Logger LOG = Logger.getLogger(Workspaces.class.getName());

    private final Path root;
    private final Optional<Path> source;

    /**
     * @param root where the workspaces live (made when missing); every instance that runs a thread's lanes
     *        must see the same directory
     * @param source a local git repository each thread's workspace starts as a clone of; empty: start empty
     */
    public Workspaces(Path root, Optional<Path> source) {
        this.root = root.toAbsolutePath().normalize();
        this.source = source;
    }

    public Path root() {
        return root;
    }

    /** The directory of thread {@code threadId}'s workspace. */
    public Path threadDir(long threadId) {
        return root.resolve("t" + threadId);
    }

    /** Where the record of run {@code runId} of the thread is written ({@code turn.json}, {@code changes.diff}). */
    public Path turnDir(long threadId, String runId) {
        return threadDir(threadId).resolve("turns").resolve(runId);
    }

    /**
     * Moves the thread's whole directory aside in one rename, so that its next turn starts a fresh
     * repository at the start (retention of an idle workspace), beside the others as
     * {@code retired-t<thread>-<uuid>}, for retention to delete once the thread's reset is committed;
     * nothing when the thread has no directory.
     */
    public void retire(long threadId) {
        Path dir = threadDir(threadId);
        if (!Files.isDirectory(dir)) {
            return;
        }
        Path aside = root.resolve("retired-t" + threadId + "-" + java.util.UUID.randomUUID());
        try {
            Files.move(dir, aside, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot retire the workspace of thread " + threadId, e);
        }
    }

    /** Deletes the record of run {@code runId} (its run is deleted by retention); nothing when it has none. */
    public void deleteTurnRecord(long threadId, String runId) throws IOException {
        Path dir = turnDir(threadId, runId);
        if (Files.isDirectory(dir)) {
            deleteTree(dir);
        }
    }

    Path worktrees(long threadId) {
        return threadDir(threadId).resolve("worktrees");
    }

    /**
     * A fresh worktree of the thread at {@code head} ({@link #START} or a commit), named {@code name}.
     * The caller executes the thread's lane, so no other worktree of the thread is in use: any left
     * by an execution that never finished (an instance killed mid-turn) is removed first.
     */
    public Worktree open(long threadId, String head, String name) {
        Repository repository = repository(threadId);
        try {
            mirror(repository, head); // the head this turn starts from is the last recorded one: show it
            Path worktrees = worktrees(threadId);
            removeLeftovers(worktrees);
            ObjectId base = head.isEmpty() ? repository.resolve(START_REF) : ObjectId.fromString(head);
            return Worktree.prepare(repository, base, head, worktrees.resolve(name),
                    new CheckoutCache(threadDir(threadId).resolve("cache"), threadDir(threadId).resolve("clock")));
        } catch (IOException | RuntimeException e) {
            repository.close();
            throw e instanceof IOException io ? new UncheckedIOException("cannot check out thread " + threadId
                    + "'s workspace at " + (head.isEmpty() ? "its start" : head), io) : (RuntimeException) e;
        }
    }

    /** Points the repository's {@code line} branch (and {@code HEAD}) at {@code head}; a failure is only logged. */
    public void mirror(long threadId, String head) {
        Path gitDir = threadDir(threadId).resolve("repo.git");
        if (!Files.isDirectory(gitDir)) {
            return;
        }
        try (Repository repository = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            mirror(repository, head);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Could not open " + gitDir + " to point " + LINE_REF + " at " + head, e);
        }
    }

    private static void mirror(Repository repository, String head) {
        try {
            ObjectId target = head.isEmpty() ? repository.resolve(START_REF) : ObjectId.fromString(head);
            RefUpdate update = repository.updateRef(LINE_REF);
            update.setForceUpdate(true);
            if (target == null) {
                if (repository.exactRef(LINE_REF) != null) {
                    update.delete();
                }
                return;
            }
            update.setNewObjectId(target);
            update.update();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "Could not point " + repository.getDirectory() + " " + LINE_REF + " at " + head, e);
        }
    }

    /** What a {@link #prune} found and did: the named commits it kept, and the repository's size around it. */
    public record Pruned(int named, long bytesBefore, long bytesAfter) {
    }

    /**
     * Drops from the thread's repository what nothing needs any more: every object that neither
     * the line, the start nor a commit in {@code named} (what the database names: the head, the
     * commits of recorded turns, a conversation's checkpoints) reaches, once it is older than
     * {@code expireBefore} — so the objects of a turn still being written, younger than that, stay.
     * The named commits are pinned as refs ({@code refs/switchboard/named/<id>}; pins no longer named
     * are removed), then the repository is garbage-collected (JGit's {@code gc}: reachable objects
     * packed, unreachable ones older than the expiry deleted). A named commit the repository does not
     * have is skipped. Empty when the thread has no repository.
     */
    public Optional<Pruned> prune(long threadId, java.util.Set<String> named, java.time.Instant expireBefore) {
        Path gitDir = threadDir(threadId).resolve("repo.git");
        if (!Files.isDirectory(gitDir)) {
            return Optional.empty();
        }
        try (Repository repository = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            long before = size(gitDir);
            int pinned = 0;
            java.util.Set<String> wanted = new java.util.HashSet<>();
            for (String commit : named) {
                if (commit == null || !ObjectId.isId(commit) || !repository.getObjectDatabase().has(ObjectId.fromString(commit))) {
                    continue;
                }
                wanted.add(NAMED_REFS + commit);
                if (repository.exactRef(NAMED_REFS + commit) == null) {
                    RefUpdate pin = repository.updateRef(NAMED_REFS + commit);
                    pin.setNewObjectId(ObjectId.fromString(commit));
                    pin.setForceUpdate(true);
                    pin.update();
                }
                pinned++;
            }
            for (org.eclipse.jgit.lib.Ref ref : repository.getRefDatabase().getRefsByPrefix(NAMED_REFS)) {
                if (!wanted.contains(ref.getName())) {
                    RefUpdate unpin = repository.updateRef(ref.getName());
                    unpin.setForceUpdate(true);
                    unpin.delete();
                }
            }
            try (org.eclipse.jgit.api.Git git = org.eclipse.jgit.api.Git.wrap(repository)) {
                git.gc().setExpire(java.util.Date.from(expireBefore)).call();
            }
            return Optional.of(new Pruned(pinned, before, size(gitDir)));
        } catch (IOException | org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new UncheckedIOException("cannot prune thread " + threadId + "'s workspace",
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    private static long size(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    /** The thread's repository, made when missing: empty, or a bare clone of the source kept as the start. */
    private Repository repository(long threadId) {
        Path gitDir = threadDir(threadId).resolve("repo.git");
        try {
            if (Files.isRegularFile(gitDir.resolve("HEAD"))) {
                return new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
            }
            Path making = Files.createDirectories(threadDir(threadId)).resolve("repo.git.making");
            deleteTree(making);
            Repository made;
            if (source.isPresent()) {
                try (Git clone = Git.cloneRepository().setURI(source.get().toUri().toString()).setBare(true)
                        .setGitDir(making.toFile()).setDirectory(making.toFile()).call()) {
                    made = clone.getRepository();
                    ObjectId start = made.resolve(Constants.HEAD);
                    if (start != null) {
                        RefUpdate keep = made.updateRef(START_REF);
                        keep.setNewObjectId(start);
                        keep.update();
                    }
                    made.updateRef(Constants.HEAD).link(LINE_REF);
                } catch (GitAPIException e) {
                    throw new IOException("cannot clone " + source.get() + ": " + e.getMessage(), e);
                }
            } else {
                made = new FileRepositoryBuilder().setGitDir(making.toFile()).build();
                made.create(true);
                made.updateRef(Constants.HEAD).link(LINE_REF);
                made.close();
            }
            Files.move(making, gitDir); // a repository appears whole or not at all
            return new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open thread " + threadId + "'s repository under " + root, e);
        }
    }

    private static void removeLeftovers(Path worktrees) throws IOException {
        if (!Files.isDirectory(worktrees)) {
            Files.createDirectories(worktrees);
            return;
        }
        try (var left = Files.list(worktrees)) {
            for (Path stray : left.toList()) {
                LOG.info(() -> "Removing " + stray + ", a worktree left by an execution that did not finish");
                deleteTree(stray);
            }
        }
    }

    /**
     * Deletes {@code dir} and everything in it, links not followed, directories whose permissions
     * a command took away included; nothing when it does not exist.
     */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                d.toFile().setWritable(true, true); // a command may have taken its own permission away
                d.toFile().setExecutable(true, true);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
