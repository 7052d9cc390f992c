package dev.switchboard.core.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real processes: in the worktree, output bounded, exit codes told, a command past its time killed. */
class CommandRunTest {

    /** The run's own rules, without a sandbox (SandboxTest runs them in one). */
    private static final Sandbox NONE = new UnconfinedSandbox();

    @TempDir
    Path worktree;

    @Test
    void aCommandRunsInTheWorktreeWithItsOutputKept() throws IOException {
        Files.writeString(worktree.resolve("a.txt"), "x");
        CommandRun.Result listed = CommandRun.run(List.of("ls"), worktree, NONE, Duration.ofSeconds(10), 1000);
        assertEquals(0, listed.exitCode());
        assertEquals("a.txt\n", listed.output());
        assertEquals("a.txt\n", listed.asToolOutput());
    }

    @Test
    void aFailureTellsItsExitCodeAndALongOutputIsCut() {
        CommandRun.Result missing = CommandRun.run(List.of("ls", "nothing-here"), worktree, NONE, Duration.ofSeconds(10), 1000);
        assertTrue(missing.exitCode() != 0);
        assertTrue(missing.asToolOutput().contains("nothing-here") && missing.asToolOutput().endsWith("[exit code "
                + missing.exitCode() + "]"), missing.asToolOutput());
        CommandRun.Result flood = CommandRun.run(List.of("seq", "1", "100000"), worktree, NONE, Duration.ofSeconds(10), 20);
        assertTrue(flood.output().startsWith("1\n2\n3\n") && flood.output().contains("[output cut: "), flood.output());
    }

    @Test
    void aCommandPastItsTimeIsKilledWithWhatItStarted() {
        long start = System.nanoTime();
        CommandRun.Result slow = CommandRun.run(List.of("sh", "-c", "sleep 30 & sleep 30"), worktree, NONE,
                Duration.ofMillis(300), 1000);
        assertTrue(slow.timedOut());
        assertTrue(slow.asToolOutput().endsWith("[killed: the command ran past its time limit]"));
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "killed, not waited for");
    }

    @Test
    void aProgramThatIsNotInstalledIsSaidSo() {
        CommandRun.Result none = CommandRun.run(List.of("no-such-program-here"), worktree, NONE, Duration.ofSeconds(5), 100);
        assertFalse(none.timedOut());
        assertEquals("cannot start no-such-program-here: not installed here", none.output());
        assertEquals("cannot start no-such-program-here: not installed here", none.asToolOutput(), "no exit code: it never ran");
    }

    @Test
    void theEnvironmentIsSmallAndHomeIsTheWorktree() throws IOException {
        CommandRun.Result env = CommandRun.run(List.of("env"), worktree, NONE, Duration.ofSeconds(10), 10_000);
        assertTrue(env.output().contains("HOME=" + worktree), env.output());
        assertEquals(java.util.Set.of("PATH", "HOME", "LANG"), env.output().lines().map(l -> l.substring(0, l.indexOf('=')))
                .collect(java.util.stream.Collectors.toSet()), "nothing of the server's environment: " + env.output());
    }
}
