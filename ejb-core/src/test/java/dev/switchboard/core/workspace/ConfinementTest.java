package dev.switchboard.core.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tool's paths stay inside its worktree: traversal, absolute paths, symlink escapes and .git refused. */
class ConfinementTest {

    @TempDir
    Path dir;

    private Path worktree;
    private Path outside;
    private Confinement confinement;

    @BeforeEach
    void layout() throws IOException {
        worktree = Files.createDirectories(dir.resolve("worktree"));
        outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.createDirectories(worktree.resolve("src/main"));
        Files.writeString(worktree.resolve("src/main/App.java"), "class App {}");
        Files.createDirectories(worktree.resolve(".git/hooks"));
        confinement = new Confinement(worktree);
    }

    private String refusal(String path) {
        return assertThrows(WorkspaceRefusal.class, () -> confinement.resolve(path)).getMessage();
    }

    @Test
    void aRelativePathInsideResolvesThere() throws IOException {
        assertEquals(worktree.toRealPath().resolve("src/main/App.java"), confinement.resolve("src/main/App.java"));
        assertEquals(worktree.toRealPath().resolve("src/App.java"), confinement.resolve("src/main/../App.java"),
                "a .. that stays inside is fine");
        assertEquals(worktree.toRealPath().resolve("new/dir/file.txt"), confinement.resolve("new/dir/file.txt"),
                "a path that does not exist yet may be created");
        assertEquals("src/main/App.java", confinement.shown(confinement.resolve("./src/main/App.java")));
    }

    @Test
    void traversalOutOfTheWorktreeIsRefused() {
        assertTrue(refusal("../outside/secret.txt").contains("outside the workspace"));
        assertTrue(refusal("src/../../outside").contains("outside the workspace"));
    }

    @Test
    void absolutePathsAreRefused() {
        assertTrue(refusal(outside.resolve("secret.txt").toString()).startsWith("absolute paths are not allowed"));
        assertTrue(refusal("/etc/passwd").startsWith("absolute paths are not allowed"));
        assertTrue(refusal("C:\\Windows").startsWith("absolute paths are not allowed"));
    }

    @Test
    void aSymlinkLeadingOutIsRefusedWhereverItStandsAndOneInsideIsFollowed() throws IOException {
        Files.createSymbolicLink(worktree.resolve("escape"), outside);
        Files.createSymbolicLink(worktree.resolve("src/leak.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(worktree.resolve("dangling"), outside.resolve("not-yet"));
        Files.createSymbolicLink(worktree.resolve("alias"), worktree.resolve("src"));
        assertTrue(refusal("escape/secret.txt").contains("through the link escape"), refusal("escape/secret.txt"));
        assertTrue(refusal("escape").contains("outside the workspace"));
        assertTrue(refusal("src/leak.txt").contains("through the link src/leak.txt"));
        assertTrue(refusal("dangling").contains("outside the workspace"), "a dangling link is judged by where it points");
        assertEquals(worktree.toRealPath().resolve("alias/main/App.java"), confinement.resolve("alias/main/App.java"),
                "a link that stays inside is allowed");
    }

    @Test
    void aDanglingLinkThroughAnotherLinkIsJudgedByWhereTheWholeChainLeads() throws IOException {
        Files.createSymbolicLink(worktree.resolve("l"), outside); // a link a diff or a command made
        Files.createSymbolicLink(worktree.resolve("x"), Path.of("l/authorized_keys")); // dangling, lexically inside
        Files.createSymbolicLink(worktree.resolve("y"), Path.of("z"));
        Files.createSymbolicLink(worktree.resolve("z"), outside.resolve("new.txt"));
        Files.createSymbolicLink(worktree.resolve("up"), Path.of("src/main/../../.."));
        Files.createSymbolicLink(worktree.resolve("g"), Path.of(".git"));
        assertTrue(refusal("x").contains("leads outside the workspace through the link x"), refusal("x"));
        assertTrue(refusal("y").contains("through the link y"), refusal("y"));
        assertTrue(refusal("up/outside/secret.txt").contains("through the link up"), refusal("up/outside/secret.txt"));
        assertTrue(refusal("g/hooks/pre-commit").contains("leads into .git through the link g"), refusal("g/hooks/pre-commit"));
        WorkspaceRefusal link = assertThrows(WorkspaceRefusal.class, () -> confinement.checkLink("new", "../outside"));
        assertEquals("a link at new to ../outside would lead outside the workspace", link.getMessage());
        confinement.checkLink("src/alias", "main/App.java"); // inside: allowed
    }

    @Test
    void gitsOwnDirectoryIsOffLimits() {
        assertTrue(refusal(".git/hooks/pre-commit").contains("inside .git"));
        assertTrue(refusal("src/../.git/config").contains("inside .git"));
    }

    @Test
    void emptyAndNulPathsAreRefused() {
        assertTrue(refusal(" ").startsWith("a path is required"));
        assertTrue(refusal("a\0b").contains("NUL"));
    }
}
