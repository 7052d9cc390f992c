package dev.switchboard.core.workspace;

import java.nio.file.Path;
import java.util.List;

/**
 * Where a workspace command runs. The allow-list ({@link CommandPolicy}) says which programs a
 * model may start; the sandbox is what holds them when a program does more than its name says:
 * {@link BubblewrapSandbox} (the default) gives it a file system of its own in which only the
 * turn's worktree is writable, no network, its own processes and limits;
 * {@link UnconfinedSandbox} runs it as the server's own user, for an operator who has no
 * bubblewrap and trusts every allowed program with the server's rights.
 */
public interface Sandbox {

    /** The process to start: {@code program} (an absolute path, {@link Programs}) with {@code arguments}, in {@code worktree}. */
    List<String> command(Path program, List<String> arguments, Path worktree);

    /** The {@code HOME} and working directory the command sees. */
    String home(Path worktree);

    /**
     * Whether every process a command starts ends with it (no process outlives the command to write
     * into its worktree later), so the worktree may be kept as the next turn's checkout cache.
     */
    boolean endsEveryProcess();

    /** The name {@code SWITCHBOARD_WORKSPACE_SANDBOX} gives it. */
    String name();
}
