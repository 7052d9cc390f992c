package dev.switchboard.core.engine.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.workspace.CommandPolicy;
import dev.switchboard.core.workspace.Workspaces;
import dev.switchboard.core.workspace.Worktree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workspace tools as a model calls them, through a {@link ToolBox}, on a real worktree. */
class WorkspaceToolsTest {

    @TempDir
    Path root;

    private ExecutorService io;
    private Worktree worktree;
    private ToolBox tools;

    @BeforeEach
    void open() {
        io = Executors.newCachedThreadPool();
        worktree = new Workspaces(root, Optional.empty()).open(1, Workspaces.START, "run-1.1");
        tools = new ToolBox(WorkspaceTools.of(worktree, new WorkspaceTools.Settings(Set.copyOf(WorkspaceTools.ALL),
                CommandPolicy.parse("ls,echo"), Duration.ofSeconds(5), 64,
                new dev.switchboard.core.workspace.BubblewrapSandbox(Path.of("/usr/bin/bwrap"), 1 << 20)), io));
    }

    @AfterEach
    void close() {
        worktree.close();
        io.shutdownNow();
    }

    private String call(String name, String arguments) throws Exception {
        return tools.call(name, arguments).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void writeListReadAndSearchWorkOnTheWorktreesFilesOnly() throws Exception {
        assertEquals("(no files)", call("list_files", "{}"));
        assertEquals("wrote 11 bytes to src/a.txt", call("write_file", "{\"path\":\"src/a.txt\",\"content\":\"alpha\\nbeta\\n\"}"));
        assertEquals("wrote 3 bytes to b.txt", call("write_file", "{\"path\":\"b.txt\",\"content\":\"b\\n\\n\"}"));
        Files.write(worktree.dir().resolve("blob.bin"), new byte[] {'b', 'e', 't', 'a', 0, 1});
        Files.createDirectories(worktree.dir().resolve("sub/.git"));
        Files.writeString(worktree.dir().resolve("sub/.git/config"), "beta");
        assertEquals("b.txt\nblob.bin\nsrc/a.txt", call("list_files", "{}"), "nothing under .git is listed");
        assertEquals("src/a.txt", call("list_files", "{\"path\":\"src\"}"));
        assertEquals("alpha\nbeta\n", call("read_file", "{\"path\":\"src/a.txt\"}"));
        assertEquals("src/a.txt:2: beta", call("search", "{\"text\":\"beta\"}"), "binary files and .git are skipped");
        assertEquals("no line contains gamma", call("search", "{\"text\":\"gamma\"}"));
        assertEquals("error: src is a directory", call("write_file", "{\"path\":\"src\",\"content\":\"x\"}"));
        assertEquals("error: missing required argument content", call("write_file", "{\"path\":\"c.txt\"}"));
        assertEquals("error: nope.txt does not exist", call("read_file", "{\"path\":\"nope.txt\"}"));
    }

    @Test
    void aFileIsNeverWrittenThroughALinkEvenOneThatStaysInside() throws Exception {
        Files.writeString(worktree.dir().resolve("real.txt"), "real");
        Files.createSymbolicLink(worktree.dir().resolve("alias.txt"), Path.of("real.txt")); // as a command could
        assertEquals("error: alias.txt is a symbolic link: write the file it points to",
                call("write_file", "{\"path\":\"alias.txt\",\"content\":\"x\"}"));
        assertEquals("real", call("read_file", "{\"path\":\"alias.txt\"}"), "reading through an inside link is fine");
        assertEquals("real", Files.readString(worktree.dir().resolve("real.txt")));
    }

    @Test
    void aLongFileIsShownInPartAndSaysHowMuchIsLeft() throws Exception {
        Files.writeString(worktree.dir().resolve("big.txt"), "x".repeat(WorkspaceTools.MAX_READ_BYTES + 10));
        String shown = call("read_file", "{\"path\":\"big.txt\"}");
        assertTrue(shown.endsWith("\n[10 more bytes not shown]"), shown.substring(shown.length() - 40));
    }

    @Test
    void runStartsOnlyAllowedProgramsInTheWorktreeWithBoundedOutput() throws Exception {
        call("write_file", "{\"path\":\"here.txt\",\"content\":\"x\"}");
        assertEquals("here.txt\n", call("run", "{\"command\":[\"ls\"]}"), "the worktree is the working directory");
        assertEquals("error: rm is not an allowed command (allowed: echo, ls)", call("run", "{\"command\":[\"rm\",\"-rf\",\".\"]}"));
        assertEquals("error: command must be a non-empty array of strings: the program, then its arguments",
                call("run", "{\"command\":\"ls -la\"}"));
        String long_ = call("run", "{\"command\":[\"echo\",\"" + "y".repeat(200) + "\"]}");
        assertTrue(long_.startsWith("y".repeat(64)) && long_.length() < 200, long_);
        assertTrue(Files.exists(worktree.dir().resolve("here.txt")), "a refused command ran nothing");
    }

    @Test
    void anUnknownToolNameInTheSettingsIsAMistakeSaidAtStart() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WorkspaceTools.Settings(
                Set.of("delete_everything"), CommandPolicy.parse(""), Duration.ofSeconds(1), 1,
                new dev.switchboard.core.workspace.UnconfinedSandbox()));
        assertTrue(e.getMessage().startsWith("unknown workspace tool 'delete_everything'"), e.getMessage());
        assertEquals(List.of("list_files", "read_file", "write_file", "apply_diff", "search", "run"), WorkspaceTools.ALL);
    }
}
