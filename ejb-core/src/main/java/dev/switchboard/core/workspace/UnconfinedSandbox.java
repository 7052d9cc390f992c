package dev.switchboard.core.workspace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * No sandbox ({@code SWITCHBOARD_WORKSPACE_SANDBOX=none}): the command runs as the server's user
 * with its rights, held only by the allow-list, the fixed {@code PATH} and the time limit. For a
 * machine without bubblewrap whose operator allows only programs that cannot be turned against it.
 */
public final class UnconfinedSandbox implements Sandbox {

    @Override
    public List<String> command(Path program, List<String> arguments, Path worktree) {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(arguments);
        return command;
    }

    @Override
    public String home(Path worktree) {
        return worktree.toString();
    }

    /** A process a command detaches (a daemon, {@code setsid}) goes on after it. */
    @Override
    public boolean endsEveryProcess() {
        return false;
    }

    @Override
    public String name() {
        return "none";
    }
}
