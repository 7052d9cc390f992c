package dev.switchboard.core.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * One turn's worktree: the files of the thread's head in a directory of the turn's own. Tools work
 * on its files; at the turn's end {@link #changes} turns what is there into a commit on top of the
 * head (when anything changed) and {@link #close} takes the directory away.
 *
 * <p>Writing a thousand files costs more than a turn should wait on an ordinary disk, so a closed
 * worktree's directory is not deleted but kept as the thread's <em>checkout cache</em> with the
 * {@link FileStamp}s of its files ({@link CheckoutCache}), and the next turn's worktree is that
 * directory moved into place and brought to the head exactly ({@link Checkout}): every file that is
 * not the head's, or whose stamp does not match (a turn wrote, deleted, renamed or re-permissioned
 * it, or its stamp is racy), is removed or written again from the head; directories left empty go,
 * anything named {@code .git} goes.
 * What a failed or cancelled turn left there is gone before the next turn sees the directory. With
 * no cache (the first turn, after an instance died mid-turn, or after a turn that ran commands unconfined —
 * a process they left behind could write into a directory that moves on), the head is checked
 * out whole.
 * Files are compared with the head by their stamps and hashed only when those cannot be trusted,
 * so a turn that touched three files of a thousand hashes three ({@link WorktreeSnapshots}). Empty
 * directories are not kept (git keeps files, not directories); nothing named {@code .git} is taken
 * into a commit.
 */
public final class Worktree implements AutoCloseable {

    private final Repository repository;
    private final ObjectId base;
    private final String head;
    private final Path dir;
    private final CheckoutCache cache;
    private final Confinement confinement;
    /** What is in the worktree, as the files' stamps last found it. */
    private final WorktreeSnapshots snapshots;
    /** The commands running in the worktree: stopped before its files are taken. */
    private final WorktreeCommands commands;

    private Worktree(Repository repository, ObjectId base, String head, Path dir, CheckoutCache cache,
            Map<String, FileStamp> stamps, Map<String, ObjectId> gitlinks) {
        this.repository = repository;
        this.base = base;
        this.head = head;
        this.dir = dir;
        this.cache = cache;
        this.confinement = new Confinement(dir);
        this.snapshots = new WorktreeSnapshots(dir, cache.clock(), confinement, gitlinks, stamps);
        this.commands = new WorktreeCommands(dir);
    }

    /**
     * The worktree of {@code base} (null: nothing) at {@code dir}, which must not exist: the thread's
     * cache moved there and brought to {@code base}, or a whole checkout.
     */
    static Worktree prepare(Repository repository, ObjectId base, String head, Path dir, CheckoutCache cache)
            throws IOException {
        Map<String, FileStamp> known = cache.take(dir);
        long statNs = FileStamp.fileSystemNow(cache.clock()); // before any file is looked at or written
        Map<String, ObjectId> gitlinks = new HashMap<>();
        Map<String, FileStamp> prepared = Checkout.bring(repository, base, dir, known, statNs, gitlinks);
        return new Worktree(repository, base, head, dir, cache, prepared, gitlinks);
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
        return commands.run(argv, sandbox, timeout, outputLimit);
    }

    /**
     * Kills the commands still running here (the turn ended while they ran) with what they started,
     * and lets no other start: what is in the worktree from now on is what the turn left.
     */
    public void stopCommands() {
        commands.stop();
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
            ObjectId tree = snapshots.take(inserter);
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

    /**
     * Applies a unified diff ({@code git diff} or {@code diff -u} format, several files at once) to
     * the files as they are now: all of it or, when any hunk does not fit, none of it. Every path it
     * names must pass the worktree's {@link Confinement}. Returns the paths it changed.
     *
     * @throws WorkspaceRefusal saying why the diff cannot be read, is refused, or does not apply
     */
    public List<String> applyDiff(String diff) {
        return DiffApplier.apply(diff, repository, confinement, snapshots);
    }

    /** Removes the worktree's directory; its commit, if it made one, stays in the repository. */
    @Override
    public void close() {
        stopCommands();
        try {
            boolean kept = !commands.processesMayOutlive() && cache.keep(dir, snapshots.stamps());
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
}
