package dev.switchboard.core.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36's escapes, each tried for real in the bubblewrap sandbox the run tool uses (Debian's
 * bubblewrap, which {@code .ci/run} installs): a model that may run {@code ln}, {@code cat},
 * {@code touch}, {@code dd}, {@code setsid}, {@code sleep} and {@code id} reaches nothing outside
 * its turn's worktree, and what it leaves there is bounded and never leads outside.
 */
class SandboxTest {

    private static final long MAX_FILE = 1 << 20;

    @TempDir
    Path root;

    private Workspaces workspaces;
    private Sandbox sandbox;
    private Path outside;

    @BeforeEach
    void setUp() throws IOException {
        workspaces = new Workspaces(root.resolve("ws"), Optional.empty());
        sandbox = new BubblewrapSandbox(Path.of("/usr/bin/bwrap"), MAX_FILE);
        outside = Files.writeString(root.resolve("outside.txt"), "the server's secret\n");
    }

    private static CommandRun.Result run(Worktree tree, Sandbox sandbox, String... argv) {
        return tree.run(List.of(argv), sandbox, Duration.ofSeconds(20), 65536);
    }

    @Test
    void aHardLinkToAFileOutsideCannotBeMadeAndFileToolsNeverGoThroughOne() throws Exception {
        try (Worktree tree = workspaces.open(1, Workspaces.START, "run-1.1")) {
            CommandRun.Result linked = run(tree, sandbox, "ln", outside.toString(), "a-hard");
            assertNotEquals(0, linked.exitCode(), "the outside file is not in the sandbox: " + linked.output());
            assertFalse(Files.exists(tree.dir().resolve("a-hard")));

            // made anyway (as an unconfined command could): no tool reads or writes through it, no commit holds it
            Files.createLink(tree.dir().resolve("a-hard"), outside);
            String refused = org.junit.jupiter.api.Assertions.assertThrows(WorkspaceRefusal.class,
                    () -> tree.confinement().resolve("a-hard")).getMessage();
            assertTrue(refused.contains("hard link"), refused);
            ChangeSet committed = tree.changes("Turn 1", java.time.Instant.now());
            assertFalse(committed.changed(), "the hard link is not committed: " + committed.files());
        }
        assertEquals("the server's secret\n", Files.readString(outside));
    }

    @Test
    void programsAreFoundOnTheFixedPathNeverInTheWorktree() throws Exception {
        try (Worktree tree = workspaces.open(2, Workspaces.START, "run-1.1")) {
            Path planted = Files.writeString(tree.dir().resolve("mytool"), "#!/bin/sh\necho PWNED\n");
            Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rwxr-xr-x"));
            CommandPolicy policy = CommandPolicy.parse("mytool");
            CommandRun.Result result = tree.run(policy.check(List.of("mytool")), sandbox, Duration.ofSeconds(5), 1000);
            assertEquals("cannot start mytool: not installed here", result.output());
            assertEquals(Optional.empty(), Programs.resolve("mytool"));
            CommandRun.Result bare = tree.run(List.of("mytool"), new UnconfinedSandbox(), Duration.ofSeconds(5), 1000);
            assertFalse(bare.output().contains("PWNED"), "not even unconfined: " + bare.output());
        }
    }

    @Test
    void linksLeadingOutsideAreNeverCommitted() throws Exception {
        ChangeSet committed;
        try (Worktree tree = workspaces.open(3, Workspaces.START, "run-1.1")) {
            Files.writeString(tree.dir().resolve("a.txt"), "a\n");
            assertEquals(0, run(tree, sandbox, "ln", "-s", "/etc/passwd", "a-mylink").exitCode());
            assertEquals(0, run(tree, sandbox, "ln", "-s", "../../../outside.txt", "a-up").exitCode());
            assertEquals(0, run(tree, sandbox, "ln", "-s", "a.txt", "a-inside").exitCode());
            committed = tree.changes("Turn 1", java.time.Instant.now());
        }
        assertEquals(List.of(new ChangeSet.FileChange("a-inside", "A"), new ChangeSet.FileChange("a.txt", "A")),
                committed.files(), "only the link that stays inside");
    }

    @Test
    void theNetworkIsALoopbackOfItsOwn() throws Exception {
        try (Worktree tree = workspaces.open(4, Workspaces.START, "run-1.1")) {
            CommandRun.Result devices = run(tree, sandbox, "cat", "/proc/net/dev");
            assertEquals(0, devices.exitCode(), devices.output());
            List<String> interfaces = devices.output().lines().skip(2).map(l -> l.strip().split(":")[0]).toList();
            assertEquals(List.of("lo"), interfaces, devices.output());
        }
    }

    @Test
    void nothingOutsideTheWorktreeIsWritableOrEvenThere() throws Exception {
        try (Worktree tree = workspaces.open(5, Workspaces.START, "run-1.1")) {
            CommandRun.Result up = run(tree, sandbox, "touch", "/proc/self/cwd/../escaped");
            assertNotEquals(0, up.exitCode(), up.output());
            assertTrue(up.output().contains("Read-only file system"), up.output());
            assertFalse(Files.exists(tree.dir().getParent().resolve("escaped")));
            assertNotEquals(0, run(tree, sandbox, "touch", "/usr/escaped").exitCode());
            CommandRun.Result read = run(tree, sandbox, "cat", outside.toString());
            assertTrue(read.output().contains("No such file"), "the server's files are not there: " + read.output());
            CommandRun.Result shadow = run(tree, sandbox, "cat", "/etc/shadow");
            assertFalse(shadow.output().contains("root:"), shadow.output());
            assertEquals("65534\n", run(tree, sandbox, "id", "-u").output(), "nobody, not the server's user");
            assertEquals(0, run(tree, sandbox, "touch", "inside.txt").exitCode());
            assertTrue(Files.exists(tree.dir().resolve("inside.txt")), "the worktree is writable");
        }
    }

    @Test
    void anotherThreadsWorktreeIsNotThere() throws Exception {
        try (Worktree other = workspaces.open(6, Workspaces.START, "run-1.1");
                Worktree tree = workspaces.open(7, Workspaces.START, "run-1.1")) {
            Files.writeString(other.dir().resolve("theirs.txt"), "another thread's file\n");
            CommandRun.Result read = run(tree, sandbox, "cat", other.dir().resolve("theirs.txt").toString());
            assertNotEquals(0, read.exitCode());
            assertFalse(read.output().contains("another thread's"), read.output());
            CommandRun.Result list = run(tree, sandbox, "ls", workspaces.root().toString());
            assertNotEquals(0, list.exitCode(), list.output());
        }
    }

    @Test
    void aDetachedBackgroundProcessEndsWithItsCommand() throws Exception {
        String marker = "77." + System.nanoTime(); // this run's own: a process another run left cannot be taken for it
        try (Worktree tree = workspaces.open(8, Workspaces.START, "run-1.1")) {
            CommandRun.Result started = run(tree, sandbox, "setsid", "-f", "sleep", marker);
            assertEquals(0, started.exitCode(), started.output());
            Await.until(Duration.ofSeconds(10), () -> !sleeping(marker), "the detached sleep is gone");
            CommandRun.Result bare = run(tree, new UnconfinedSandbox(), "setsid", "-f", "sleep", marker);
            assertEquals(0, bare.exitCode(), bare.output());
            // setsid -f returns before its child has become sleep: waited for, not looked at once
            Await.until(Duration.ofSeconds(10), () -> sleeping(marker),
                    "unconfined, the same command leaves it running (the test can fail)");
        } finally {
            ProcessHandle.allProcesses().filter(p -> p.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false))
                    .forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static boolean sleeping(String marker) {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().command().map(c -> c.endsWith("sleep")).orElse(false)
                && p.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false));
    }

    @Test
    void aFileCannotGrowPastTheLimit() throws Exception {
        try (Worktree tree = workspaces.open(9, Workspaces.START, "run-1.1")) {
            CommandRun.Result filled = run(tree, sandbox, "dd", "if=/dev/zero", "of=big", "bs=1M", "count=8");
            assertNotEquals(0, filled.exitCode(), filled.output());
            assertTrue(Files.size(tree.dir().resolve("big")) <= MAX_FILE, Files.size(tree.dir().resolve("big")) + " bytes");
            CommandRun.Result allocated = run(tree, sandbox, "fallocate", "-l", "100M", "huge");
            assertNotEquals(0, allocated.exitCode(), allocated.output());
            assertTrue(!Files.exists(tree.dir().resolve("huge")) || Files.size(tree.dir().resolve("huge")) <= MAX_FILE);
        }
    }
}
