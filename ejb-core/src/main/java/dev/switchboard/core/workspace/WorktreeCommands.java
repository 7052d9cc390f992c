package dev.switchboard.core.workspace;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The commands running in one worktree: tracked so that the turn's end stops them with what they
 * started before the worktree's files are taken, and none starts after; and whether one ran whose
 * processes may outlive it.
 */
final class WorktreeCommands {

    private final Path dir;
    /** The commands running in the worktree now (guarded by itself): stopped before its files are taken. */
    private final Set<Process> commands = new HashSet<>();
    /** No command may start any more: the turn is ending. */
    private boolean stopping;
    /**
     * A command ran here whose processes may outlive it (unconfined): the directory is not kept, a
     * process it left could still write into it.
     */
    private boolean processesMayOutlive;

    WorktreeCommands(Path dir) {
        this.dir = dir;
    }

    /** Runs an allowed command in the worktree ({@link CommandRun}), unless the worktree is being stopped. */
    CommandRun.Result run(List<String> argv, Sandbox sandbox, Duration timeout, int outputLimit) {
        return CommandRun.run(argv, dir, sandbox, timeout, outputLimit, new CommandRun.Tracker() {
            @Override
            public boolean started(Process process) {
                synchronized (commands) {
                    if (stopping) {
                        return false;
                    }
                    commands.add(process);
                    processesMayOutlive |= !sandbox.endsEveryProcess();
                    return true;
                }
            }

            @Override
            public void ended(Process process) {
                synchronized (commands) {
                    commands.remove(process);
                }
            }
        });
    }

    /** Kills the commands still running with what they started, and lets no other start. */
    void stop() {
        List<Process> running;
        synchronized (commands) {
            stopping = true;
            running = List.copyOf(commands);
        }
        for (Process command : running) {
            CommandRun.kill(command);
            command.onExit().completeOnTimeout(command, 2, java.util.concurrent.TimeUnit.SECONDS).join();
        }
    }

    /** Whether a command ran here whose processes may outlive it: the directory must not be kept. */
    boolean processesMayOutlive() {
        return processesMayOutlive;
    }
}
