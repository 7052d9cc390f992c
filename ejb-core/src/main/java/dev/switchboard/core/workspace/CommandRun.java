package dev.switchboard.core.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Executes one allowed command in a worktree, the way the {@code run} tool will: the program found
 * on the fixed {@code PATH} only ({@link Programs}), started in a {@link Sandbox} without a shell,
 * no standard input, a small fixed environment ({@code PATH}, {@code HOME} = the worktree as the
 * command sees it, {@code LANG}), standard output and error merged and kept within a limit, and a
 * timeout after which the command and everything it started are killed. Blocks its caller for the
 * command's duration: the tool calls it on an executor of its own.
 */
public final class CommandRun {

    /** The exit code of a command that was never started (its output says why) or was killed. */
    static final int NOT_STARTED = -1;

    /** How a command ended: its exit code ({@link #NOT_STARTED} when killed or not started), whether it timed out, its output. */
    public record Result(int exitCode, boolean timedOut, String output) {

        /** The tool's answer: the output, then how the command ended when it did not exit 0. */
        public String asToolOutput() {
            if (timedOut) {
                return output + (output.isEmpty() ? "" : "\n") + "[killed: the command ran past its time limit]";
            }
            return exitCode == 0 || exitCode == NOT_STARTED ? output
                    : output + (output.isEmpty() ? "" : "\n") + "[exit code " + exitCode + "]";
        }
    }

    private CommandRun() {
    }

    /** Who learns of a command's process: may refuse it as it starts (it is killed at once), and hears when it ended. */
    interface Tracker {

        Tracker NONE = new Tracker() {
            @Override
            public boolean started(Process process) {
                return true;
            }

            @Override
            public void ended(Process process) {
            }
        };

        boolean started(Process process);

        void ended(Process process);
    }

    /** Runs {@code argv} (already checked by a {@link CommandPolicy}) in {@code worktree}, in {@code sandbox}. */
    public static Result run(List<String> argv, Path worktree, Sandbox sandbox, Duration timeout, int outputLimit) {
        return run(argv, worktree, sandbox, timeout, outputLimit, Tracker.NONE);
    }

    /** As {@link #run(List, Path, Sandbox, Duration, int)}, the process told to {@code tracker}. */
    static Result run(List<String> argv, Path worktree, Sandbox sandbox, Duration timeout, int outputLimit,
            Tracker tracker) {
        Optional<Path> program = Programs.resolve(argv.get(0));
        if (program.isEmpty()) {
            return new Result(-1, false, "cannot start " + argv.get(0) + ": not installed here");
        }
        ProcessBuilder builder = new ProcessBuilder(sandbox.command(program.get(), argv.subList(1, argv.size()), worktree))
                .directory(worktree.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> env = builder.environment();
        env.clear();
        env.put("PATH", Programs.PATH);
        env.put("HOME", sandbox.home(worktree));
        env.put("LANG", "C.UTF-8");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return new Result(-1, false, "cannot start " + argv.get(0) + " in the " + sandbox.name() + " sandbox: "
                    + e.getMessage());
        }
        if (!tracker.started(process)) {
            kill(process);
            return new Result(-1, false, "not run: the turn has ended");
        }
        try {
            return waitFor(process, argv, timeout, outputLimit);
        } finally {
            tracker.ended(process);
        }
    }

    private static Result waitFor(Process process, List<String> argv, Duration timeout, int outputLimit) {
        BoundedOutput output = new BoundedOutput(outputLimit);
        Thread reader = new Thread(() -> drain(process.getInputStream(), output), "command-output");
        reader.setDaemon(true);
        reader.start();
        boolean exited;
        try {
            exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exited = false;
        }
        if (!exited) {
            kill(process);
        }
        try {
            reader.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new Result(exited ? process.exitValue() : -1, !exited, output.text());
    }

    /** Kills the process and everything it started that is still its descendant. */
    static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static void drain(InputStream in, BoundedOutput output) {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                output.append(buffer, 0, n);
            }
        } catch (IOException ended) {
            // the process was killed: what was read is kept
        }
    }
}
