package dev.switchboard.core.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The run tool's allow-list: programs by name only, nothing else. */
class CommandPolicyTest {

    private final CommandPolicy policy = CommandPolicy.parse(" git, ls ,python3");

    private String refusal(List<String> argv) {
        return assertThrows(WorkspaceRefusal.class, () -> policy.check(argv)).getMessage();
    }

    @Test
    void anAllowedProgramRunsWithItsArgumentsAsTheyAre() {
        assertEquals(Set.of("git", "ls", "python3"), policy.allowed());
        assertEquals(List.of("git", "status", "; rm -rf /"), policy.check(List.of("git", "status", "; rm -rf /")),
                "no shell: an argument is only ever an argument");
    }

    @Test
    void aProgramNotOnTheListOrGivenByPathIsRefusedWithTheReason() {
        assertEquals("curl is not an allowed command (allowed: git, ls, python3)", refusal(List.of("curl", "x")));
        assertTrue(refusal(List.of("/usr/bin/git", "status")).startsWith("give the program by name"));
        assertTrue(refusal(List.of("../git")).startsWith("give the program by name"));
        assertTrue(refusal(List.of()).startsWith("a command is required"));
        assertTrue(refusal(List.of("git", "a\0b")).contains("NUL"));
        assertEquals("ls is not an allowed command (no command is allowed)",
                assertThrows(WorkspaceRefusal.class, () -> CommandPolicy.parse("").check(List.of("ls"))).getMessage());
    }

    @Test
    void aListEntryThatIsNoProgramNameIsAConfigurationError() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CommandPolicy.parse("git,rm -rf"))
                .getMessage().contains("'rm -rf'"));
    }

    @Test
    void aLauncherRunsOnlyAProgramThatIsAllowedToo() {
        CommandPolicy launchers = CommandPolicy.parse("timeout,env,nice,xargs,find,setsid,ls,sleep");
        for (List<String> argv : List.of(List.of("timeout", "5", "rm", "-rf", "x"), List.of("timeout", "-s", "KILL", "5", "rm"),
                List.of("env", "rm", "x"), List.of("env", "-i", "A=1", "B=2", "rm"), List.of("env", "-u", "HOME", "rm"),
                List.of("nice", "-n", "5", "rm"), List.of("nice", "--", "rm"), List.of("xargs", "-n", "1", "rm"),
                List.of("find", ".", "-name", "*.txt", "-exec", "rm", "{}", ";"), List.of("setsid", "-f", "rm"),
                List.of("timeout", "5", "nice", "rm"), List.of("xargs"))) {
            String refused = assertThrows(WorkspaceRefusal.class, () -> launchers.check(argv), argv.toString()).getMessage();
            assertTrue(refused.contains("is not an allowed command"), argv + ": " + refused);
        }
        for (List<String> argv : List.of(List.of("timeout", "5", "ls", "-l"), List.of("env", "A=1", "ls"), List.of("env"),
                List.of("nice", "-n", "5", "ls"), List.of("xargs", "-0", "ls"), List.of("find", ".", "-exec", "ls", "{}", ";"),
                List.of("timeout", "-k", "1", "5", "nice", "ls"), List.of("setsid", "-f", "sleep", "1"))) {
            assertEquals(argv, launchers.check(argv), argv.toString());
        }
        assertTrue(assertThrows(WorkspaceRefusal.class, () -> launchers.check(List.of("env", "-S", "ls x")))
                .getMessage().contains("cannot be checked"));
    }

    @Test
    void aShellOrAnotherProgramThatRunsWhatItsScriptSaysIsNeverRun() {
        CommandPolicy shells = CommandPolicy.parse("sh,bash,sudo,busybox,timeout");
        for (List<String> argv : List.of(List.of("sh", "-c", "ls"), List.of("bash", "x.sh"), List.of("sudo", "ls"),
                List.of("busybox", "ls"), List.of("timeout", "5", "sh", "-c", "ls"))) {
            String refused = assertThrows(WorkspaceRefusal.class, () -> shells.check(argv)).getMessage();
            assertTrue(refused.contains("cannot be checked"), argv + ": " + refused);
        }
    }
}
