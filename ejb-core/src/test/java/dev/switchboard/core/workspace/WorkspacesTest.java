package dev.switchboard.core.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Worktrees on real repositories: check-out at a head, change sets, leftovers, a cloned start. */
class WorkspacesTest {

    @TempDir
    Path root;

    @Test
    void aTurnsChangesBecomeOneCommitOnTopOfTheHeadAndTheNextTurnStartsFromIt() throws Exception {
        Workspaces workspaces = new Workspaces(root.resolve("ws"), Optional.empty());
        ChangeSet first;
        try (Worktree tree = workspaces.open(7, Workspaces.START, "run-1.1")) {
            assertEquals(List.of(), list(tree.dir()));
            Files.writeString(tree.dir().resolve("a.txt"), "alpha\n");
            Files.createDirectories(tree.dir().resolve("src/main"));
            Files.writeString(tree.dir().resolve("src/main/b.sh"), "echo b\n");
            Files.setPosixFilePermissions(tree.dir().resolve("src/main/b.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.createSymbolicLink(tree.dir().resolve("link"), Path.of("a.txt"));
            first = tree.changes("Turn 1", Instant.parse("2026-11-26T10:00:00Z"));
        }
        assertTrue(first.changed());
        assertEquals(Workspaces.START, first.base());
        assertEquals(List.of(new ChangeSet.FileChange("a.txt", "A"), new ChangeSet.FileChange("link", "A"),
                new ChangeSet.FileChange("src/main/b.sh", "A")), first.files());
        assertTrue(first.diff().contains("+alpha"), first.diff());
        assertFalse(Files.exists(root.resolve("ws/t7/worktrees/run-1.1")), "the worktree is removed after the turn");

        ChangeSet second;
        try (Worktree tree = workspaces.open(7, first.commit(), "run-2.1")) {
            assertEquals("alpha\n", Files.readString(tree.dir().resolve("a.txt")));
            assertTrue(Files.isSymbolicLink(tree.dir().resolve("link")));
            assertTrue(Files.isExecutable(tree.dir().resolve("src/main/b.sh")));
            Files.writeString(tree.dir().resolve("a.txt"), "alpha\nbeta\n");
            Files.delete(tree.dir().resolve("src/main/b.sh"));
            second = tree.changes("Turn 2", Instant.now());
        }
        assertEquals(first.commit(), second.base());
        assertEquals(List.of(new ChangeSet.FileChange("a.txt", "M"), new ChangeSet.FileChange("src/main/b.sh", "D")),
                second.files());
        assertTrue(second.diff().contains("+beta") && second.diff().contains("deleted file"), second.diff());
        try (Git git = Git.open(root.resolve("ws/t7/repo.git").toFile())) {
            var commit = git.getRepository().parseCommit(git.getRepository().resolve(second.commit()));
            assertEquals("Turn 2", commit.getShortMessage());
            assertEquals(first.commit(), commit.getParent(0).name());
        }

        try (Worktree tree = workspaces.open(7, second.commit(), "run-3.1")) {
            ChangeSet none = tree.changes("Turn 3", Instant.now());
            assertFalse(none.changed(), "a turn that changed nothing makes no commit");
            assertEquals(second.commit(), none.head());
        }
    }

    @Test
    void aRecycledWorktreeComesBackExactlyAtTheHeadWhateverAFailedTurnDidToIt() throws Exception {
        Workspaces workspaces = new Workspaces(root, Optional.empty());
        ChangeSet first;
        try (Worktree tree = workspaces.open(4, Workspaces.START, "run-1.1")) {
            Files.createDirectories(tree.dir().resolve("src/deep"));
            Files.writeString(tree.dir().resolve("src/deep/kept.txt"), "kept\n");
            Files.writeString(tree.dir().resolve("same-size.txt"), "aaaa\n");
            Files.writeString(tree.dir().resolve("deleted.txt"), "gone soon\n");
            Files.writeString(tree.dir().resolve("plain.sh"), "echo\n");
            Files.writeString(tree.dir().resolve("becomes-dir"), "file\n");
            first = tree.changes("Turn 1", Instant.now());
        }
        assertTrue(Files.isDirectory(root.resolve("t4/cache")), "the closed worktree is kept as the thread's cache");
        Object keptInode;
        try (Worktree quiet = workspaces.open(4, first.commit(), "run-2.1")) {
            Thread.sleep(50); // past the clock tick the files were written in: the stamps taken now are trusted
            assertFalse(quiet.changes("Turn 2", Instant.now()).changed());
            keptInode = Files.getAttribute(quiet.dir().resolve("src/deep/kept.txt"), "unix:ino");
        }
        try (Worktree failed = workspaces.open(4, first.commit(), "run-3.1")) {
            assertEquals(keptInode, Files.getAttribute(failed.dir().resolve("src/deep/kept.txt"), "unix:ino"),
                    "an untouched file is kept, not written again");
            Path dir = failed.dir();
            var before = Files.getLastModifiedTime(dir.resolve("same-size.txt"));
            Files.writeString(dir.resolve("same-size.txt"), "bbbb\n");
            Files.setLastModifiedTime(dir.resolve("same-size.txt"), before); // a forged time: the change time still moves
            Files.delete(dir.resolve("deleted.txt"));
            Files.writeString(dir.resolve("junk.txt"), "junk\n");
            Files.createDirectories(dir.resolve("empty/dirs"));
            Files.createDirectories(dir.resolve("sub/.git/hooks"));
            Files.writeString(dir.resolve("sub/.git/hooks/pre-commit"), "evil\n");
            Files.setPosixFilePermissions(dir.resolve("plain.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.delete(dir.resolve("becomes-dir"));
            Files.createDirectories(dir.resolve("becomes-dir"));
            Files.writeString(dir.resolve("becomes-dir/inside.txt"), "x\n");
            Files.createDirectories(dir.resolve("locked"));
            Files.writeString(dir.resolve("locked/file.txt"), "x\n");
            Files.setPosixFilePermissions(dir.resolve("locked"), PosixFilePermissions.fromString("r-x------"));
            // the turn fails: no changes(), only close()
        }
        try (Worktree next = workspaces.open(4, first.commit(), "run-4.1")) {
            Path dir = next.dir();
            assertEquals(keptInode, Files.getAttribute(dir.resolve("src/deep/kept.txt"), "unix:ino"));
            try (var all = Files.walk(dir)) {
                assertEquals(List.of("becomes-dir", "deleted.txt", "plain.sh", "same-size.txt", "src", "src/deep",
                        "src/deep/kept.txt"), all.filter(p -> !p.equals(dir)).map(p -> dir.relativize(p).toString())
                        .sorted().toList());
            }
            assertEquals("aaaa\n", Files.readString(dir.resolve("same-size.txt")));
            assertEquals("gone soon\n", Files.readString(dir.resolve("deleted.txt")));
            assertEquals("file\n", Files.readString(dir.resolve("becomes-dir")));
            assertFalse(Files.isExecutable(dir.resolve("plain.sh")));
            assertFalse(next.changes("Turn 4", Instant.now()).changed(), "the tree is the head's, exactly");
        }
    }

    @Test
    void aCommandStillRunningWhenItsTurnEndsIsKilledBeforeTheDirectoryIsKeptForTheNextTurn() throws Exception {
        Workspaces workspaces = new Workspaces(root, Optional.empty());
        Worktree tree = workspaces.open(6, Workspaces.START, "run-1.1");
        var result = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> tree.run(List.of("sleep", "30"), new BubblewrapSandbox(Path.of("/usr/bin/bwrap"), 1 << 20),
                        java.time.Duration.ofSeconds(60), 1024));
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (ProcessHandle.current().descendants().noneMatch(p -> p.info().command().orElse("").endsWith("sleep"))) {
            assertTrue(System.nanoTime() < deadline, "the command starts");
            Thread.sleep(10);
        }
        long closing = System.nanoTime();
        tree.close(); // the turn was cancelled while its command ran
        assertTrue(System.nanoTime() - closing < java.util.concurrent.TimeUnit.SECONDS.toNanos(5), "close did not wait it out");
        CommandRun.Result killed = result.get(5, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(killed.exitCode() == 128 + 9 || killed.exitCode() == -1, "killed (SIGKILL), or killed as it started: "
                + killed);
        assertTrue(ProcessHandle.current().descendants().noneMatch(p -> p.info().command().orElse("").endsWith("sleep")));
    }

    /**
     * In the sandbox no process outlives its command, so a turn that ran one keeps its directory as
     * the next turn's cache (brought back to the head); unconfined, a detached process could write
     * into it later, so it is not kept.
     */
    @Test
    void aTurnThatRanCommandsKeepsItsCacheOnlyWhenTheSandboxEndsTheirProcesses() throws Exception {
        Workspaces workspaces = new Workspaces(root, Optional.empty());
        Path cache = workspaces.threadDir(13).resolve("cache");
        try (Worktree tree = workspaces.open(13, Workspaces.START, "run-1.1")) {
            assertEquals(0, tree.run(List.of("touch", "left.txt"), new BubblewrapSandbox(Path.of("/usr/bin/bwrap"), 1 << 20),
                    java.time.Duration.ofSeconds(10), 1024).exitCode());
        }
        assertTrue(Files.isDirectory(cache), "kept as the next turn's cache");
        try (Worktree tree = workspaces.open(13, Workspaces.START, "run-2.1")) {
            assertEquals(List.of(), list(tree.dir()), "brought back to the head: the command's file is gone");
            assertEquals(0, tree.run(List.of("touch", "left.txt"), new UnconfinedSandbox(),
                    java.time.Duration.ofSeconds(10), 1024).exitCode());
        }
        assertFalse(Files.exists(cache), "unconfined, the directory is not kept");
    }

    @Test
    void aWorktreeLeftByAnExecutionThatNeverFinishedIsRemovedBeforeTheNextOne() throws Exception {
        Workspaces workspaces = new Workspaces(root, Optional.empty());
        Worktree killed = workspaces.open(3, Workspaces.START, "run-1.1");
        Files.writeString(killed.dir().resolve("half-written.txt"), "x");
        Files.createDirectories(killed.dir().resolve("locked"));
        Files.setPosixFilePermissions(killed.dir().resolve("locked"), PosixFilePermissions.fromString("r-x------"));
        // no changes(), no close(): the instance died here
        try (Worktree next = workspaces.open(3, Workspaces.START, "run-1.2")) {
            assertFalse(Files.exists(killed.dir()), "the stray worktree is gone");
            assertEquals(List.of(), list(next.dir()), "the re-execution starts on a clean tree");
            assertEquals(List.of("run-1.2"), list(root.resolve("t3/worktrees")));
        }
    }

    @Test
    void aThreadStartsAsACloneOfTheConfiguredSourceAndMirrorsItsLine() throws Exception {
        Path source = root.resolve("source");
        try (Git git = Git.init().setDirectory(source.toFile()).setInitialBranch("trunk").call()) {
            Files.writeString(source.resolve("README"), "hello\n");
            git.add().addFilepattern("README").call();
            git.commit().setMessage("start").setAuthor("t", "t@t").setCommitter("t", "t@t").setSign(false).call();
        }
        Workspaces workspaces = new Workspaces(root.resolve("ws"), Optional.of(source));
        ChangeSet turn;
        try (Worktree tree = workspaces.open(5, Workspaces.START, "run-1.1")) {
            assertEquals("hello\n", Files.readString(tree.dir().resolve("README")));
            Files.writeString(tree.dir().resolve("README"), "hello, world\n");
            turn = tree.changes("Turn 1", Instant.now());
        }
        assertEquals(List.of(new ChangeSet.FileChange("README", "M")), turn.files());
        workspaces.mirror(5, turn.commit());
        try (Git git = Git.open(root.resolve("ws/t5/repo.git").toFile())) {
            assertEquals(turn.commit(), git.getRepository().resolve("HEAD").name());
        }
        workspaces.mirror(5, Workspaces.START);
        try (Git git = Git.open(root.resolve("ws/t5/repo.git").toFile())) {
            assertEquals("start", git.getRepository().parseCommit(git.getRepository().resolve("HEAD")).getShortMessage());
        }
        assertNull(null);
    }

    /**
     * A user's repository whose base holds links that lead outside the worktree (issue 49: every
     * turn's commit recorded them as deleted): a turn that leaves them alone commits them exactly as
     * they were; only a link the turn itself made or changed to lead outside is left out.
     */
    @Test
    void linksLeadingOutsideThatTheBaseHeldStayAsTheyWereAndOnlyTheTurnsOwnAreLeftOut() throws Exception {
        Path source = root.resolve("source");
        try (Git git = Git.init().setDirectory(source.toFile()).setInitialBranch("main").call()) {
            Files.writeString(source.resolve("README"), "hello\n");
            Files.createDirectories(source.resolve("l"));
            Files.createSymbolicLink(source.resolve("l/abs"), Path.of("/opt/x"));
            Files.createSymbolicLink(source.resolve("l/rel"), Path.of("../../outside"));
            Files.createSymbolicLink(source.resolve("l/in"), Path.of("../README"));
            git.add().addFilepattern(".").call();
            git.commit().setMessage("base").setAuthor("t", "t@t").setCommitter("t", "t@t").setSign(false).call();
        }
        Workspaces workspaces = new Workspaces(root.resolve("ws"), Optional.of(source));
        ChangeSet first;
        try (Worktree tree = workspaces.open(9, Workspaces.START, "run-1.1")) {
            assertEquals(Path.of("/opt/x"), Files.readSymbolicLink(tree.dir().resolve("l/abs")));
            Files.writeString(tree.dir().resolve("README"), "hello, world\n");
            first = tree.changes("Turn 1", Instant.now());
        }
        assertEquals(List.of(new ChangeSet.FileChange("README", "M")), first.files(),
                "the base's links are not the turn's change: " + first.diff());
        ChangeSet second;
        try (Worktree tree = workspaces.open(9, first.commit(), "run-2.1")) {
            assertEquals(Path.of("../../outside"), Files.readSymbolicLink(tree.dir().resolve("l/rel")),
                    "the next turn finds them as they were");
            Files.delete(tree.dir().resolve("l/rel"));
            Files.createSymbolicLink(tree.dir().resolve("l/rel"), Path.of("../../elsewhere")); // changed by the turn
            Files.createSymbolicLink(tree.dir().resolve("l/new"), Path.of("/etc/passwd")); // made by the turn
            Files.delete(tree.dir().resolve("l/in"));
            second = tree.changes("Turn 2", Instant.now());
        }
        assertEquals(List.of(new ChangeSet.FileChange("l/in", "D"), new ChangeSet.FileChange("l/rel", "D")),
                second.files(), "what the turn made or changed to lead outside is left out; what it deleted is deleted");
        try (Git git = Git.open(root.resolve("ws/t9/repo.git").toFile())) {
            var repository = git.getRepository();
            var commit = repository.parseCommit(repository.resolve(second.commit()));
            try (var walk = org.eclipse.jgit.treewalk.TreeWalk.forPath(repository, "l/abs", commit.getTree())) {
                assertEquals("/opt/x", new String(repository.open(walk.getObjectId(0)).getBytes(), StandardCharsets.UTF_8),
                        "the untouched outward link is still in the line");
            }
        }
    }

    @Test
    void aUnifiedDiffAppliesWholeOrNotAtAllAndOnlyInsideTheWorktree() throws Exception {
        Workspaces workspaces = new Workspaces(root, Optional.empty());
        try (Worktree tree = workspaces.open(9, Workspaces.START, "run-1.1")) {
            Files.writeString(tree.dir().resolve("a.txt"), "one\ntwo\nthree\n");
            List<String> changed = tree.applyDiff("""
                    --- a/a.txt
                    +++ b/a.txt
                    @@ -1,3 +1,3 @@
                     one
                    -two
                    +TWO
                     three
                    --- /dev/null
                    +++ b/new/b.txt
                    @@ -0,0 +1 @@
                    +bee
                    """);
            assertEquals(List.of("a.txt", "new/b.txt"), changed.stream().sorted().toList());
            assertEquals("one\nTWO\nthree\n", Files.readString(tree.dir().resolve("a.txt")));
            assertEquals("bee\n", Files.readString(tree.dir().resolve("new/b.txt")));

            WorkspaceRefusal misfit = org.junit.jupiter.api.Assertions.assertThrows(WorkspaceRefusal.class,
                    () -> tree.applyDiff("""
                            --- a/a.txt
                            +++ b/a.txt
                            @@ -1,3 +1,3 @@
                             one
                            -two
                            +2
                             three
                            --- a/new/b.txt
                            +++ b/new/b.txt
                            @@ -1 +1 @@
                            -bee
                            +wasp
                            """));
            assertTrue(misfit.getMessage().startsWith("the diff does not apply"), misfit.getMessage());
            assertEquals("bee\n", Files.readString(tree.dir().resolve("new/b.txt")), "nothing of a misfit applies");

            WorkspaceRefusal outside = org.junit.jupiter.api.Assertions.assertThrows(WorkspaceRefusal.class,
                    () -> tree.applyDiff("--- a/../escape.txt\n+++ b/../escape.txt\n@@ -0,0 +1 @@\n+x\n"));
            assertTrue(outside.getMessage().contains("outside the workspace"), outside.getMessage());
            assertFalse(Files.exists(root.resolve("t9/worktrees/escape.txt")));
        }
    }

    @Test
    void aDiffThatWouldMakeALinkLeadingOutIsRefusedWholeBeforeAnythingIsWritten() throws Exception {
        Path outside = Files.createDirectories(root.resolve("outside"));
        Workspaces workspaces = new Workspaces(root.resolve("ws"), Optional.empty());
        try (Worktree tree = workspaces.open(8, Workspaces.START, "run-1.1")) {
            WorkspaceRefusal chain = org.junit.jupiter.api.Assertions.assertThrows(WorkspaceRefusal.class,
                    () -> tree.applyDiff("diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n"
                            + "@@ -0,0 +1 @@\n+" + outside + "\n\\ No newline at end of file\n"
                            + "diff --git a/x b/x\nnew file mode 120000\n--- /dev/null\n+++ b/x\n"
                            + "@@ -0,0 +1 @@\n+l/authorized_keys\n\\ No newline at end of file\n"));
            assertTrue(chain.getMessage().contains("would lead outside the workspace"), chain.getMessage());
            assertEquals(List.of(), list(tree.dir()), "nothing of the diff was written");
            List<String> inside = tree.applyDiff("diff --git a/alias b/alias\nnew file mode 120000\n--- /dev/null\n"
                    + "+++ b/alias\n@@ -0,0 +1 @@\n+src\n\\ No newline at end of file\n");
            assertEquals(List.of("alias"), inside);
            assertEquals(Path.of("src"), Files.readSymbolicLink(tree.dir().resolve("alias")), "a link staying inside is made");
        }
        assertEquals(List.of(), list(outside));
    }

    @Test
    void pruningDropsWhatNothingNamesOnceItIsOlderThanTheRetentionAndKeepsEveryNamedCommit() throws Exception {
        Workspaces workspaces = new Workspaces(root, Optional.empty());
        String recorded = commit(workspaces, Workspaces.START, "run-1.1", "a.txt", "recorded\n");
        workspaces.mirror(11, recorded);
        String unrecorded = commit(workspaces, recorded, "run-2.1", "b.txt", "an execution that was never recorded\n");
        String checkpoint = commit(workspaces, recorded, "run-3.1", "c.txt", "undone, kept for redo\n");
        workspaces.mirror(11, recorded); // undo: the line went back; only the database names the checkpoint now
        String young = commit(workspaces, recorded, "run-4.1", "d.txt", "a turn still being written\n");

        java.time.Instant now = java.time.Instant.now();
        Workspaces.Pruned kept = workspaces.prune(11, java.util.Set.of(recorded, checkpoint), now.minus(java.time.Duration.ofHours(1)))
                .orElseThrow();
        assertEquals(2, kept.named());
        for (String commit : List.of(recorded, unrecorded, checkpoint, young)) {
            assertTrue(has(workspaces, commit), "within the retention nothing goes: " + commit);
        }
        Workspaces.Pruned pruned = workspaces.prune(11, java.util.Set.of(recorded, checkpoint, "0".repeat(40)),
                now.plusSeconds(60)).orElseThrow();
        assertEquals(2, pruned.named(), "a commit the repository lacks is skipped");
        assertTrue(has(workspaces, recorded) && has(workspaces, checkpoint), "every named commit stays");
        assertFalse(has(workspaces, unrecorded), "an unrecorded execution's commit goes");
        assertFalse(has(workspaces, young), "and so would a young one, past the retention");
        try (Worktree tree = workspaces.open(11, checkpoint, "run-5.1")) {
            assertEquals("undone, kept for redo\n", Files.readString(tree.dir().resolve("c.txt")), "redo still works");
        }
        assertTrue(workspaces.prune(12, java.util.Set.of(), now).isEmpty(), "no repository, nothing to prune");
    }

    private static String commit(Workspaces workspaces, String head, String name, String file, String text) throws Exception {
        try (Worktree tree = workspaces.open(11, head, name)) {
            Files.writeString(tree.dir().resolve(file), text);
            return tree.changes(name, Instant.now()).commit();
        }
    }

    private static boolean has(Workspaces workspaces, String commit) throws Exception {
        try (Git git = Git.open(workspaces.threadDir(11).resolve("repo.git").toFile())) {
            return git.getRepository().getObjectDatabase().has(org.eclipse.jgit.lib.ObjectId.fromString(commit));
        }
    }

    private static List<String> list(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static String read(Path file) throws Exception {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }
}
