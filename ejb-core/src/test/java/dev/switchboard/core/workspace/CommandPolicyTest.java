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
}
