package dev.switchboard.core.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a command under bubblewrap ({@code bwrap}, Debian's {@code bubblewrap}): in new user, mount,
 * PID, network, IPC and UTS namespaces, as {@code nobody} (uid 65534, no capabilities), on a root
 * of its own that holds only
 * <ul>
 * <li>the system's programs and libraries ({@code /usr} and the {@code /bin}, {@code /lib}…
 * beside it) and {@code /etc}, read-only, the password hashes and host keys hidden;</li>
 * <li>the turn's worktree at {@code /workspace}, the only place it can write that outlives it;</li>
 * <li>a minimal {@code /dev}, its own {@code /proc} and an empty {@code /tmp}.</li>
 * </ul>
 * Nothing else of the machine is there: not the server's files and keys, not other threads'
 * worktrees, not home directories. The root is read-only (so {@code /proc/self/cwd/..} leads
 * nowhere writable), the network is a loopback of its own, and when the command's first process
 * ends, every process it started ends with it (the namespace's init is gone), as it does when the
 * server dies. Each file it writes may grow to {@code maxFileBytes} ({@code prlimit --fsize}); a
 * write past that fails.
 */
public final class BubblewrapSandbox implements Sandbox {

    /** Where the worktree is inside. */
    static final String WORKSPACE = "/workspace";
    private static final List<String> SYSTEM = List.of("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");
    private static final List<String> HIDDEN_FILES = List.of("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-");
    private static final List<String> HIDDEN_DIRS = List.of("/etc/ssh", "/etc/ssl/private");

    private final Path bwrap;
    private final Path prlimit;
    private final long maxFileBytes;
    private final List<String> mounts;

    /** @throws IllegalStateException when {@code bwrap} or {@code prlimit} is not installed */
    public BubblewrapSandbox(Path bwrap, long maxFileBytes) {
        if (!Files.isExecutable(bwrap)) {
            throw new IllegalStateException("bubblewrap is not installed at " + bwrap);
        }
        this.bwrap = bwrap;
        this.prlimit = Programs.resolve("prlimit")
                .orElseThrow(() -> new IllegalStateException("prlimit (util-linux) is not installed"));
        this.maxFileBytes = maxFileBytes;
        this.mounts = systemMounts();
    }

    /** The machine's layout, read once: merged-{@code /usr} systems have links where others have directories. */
    private static List<String> systemMounts() {
        List<String> args = new ArrayList<>(List.of("--ro-bind", "/usr", "/usr"));
        try {
            for (String dir : SYSTEM) {
                Path path = Path.of(dir);
                if (Files.isSymbolicLink(path)) {
                    args.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), dir));
                } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    args.addAll(List.of("--ro-bind", dir, dir));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the system's layout", e);
        }
        args.addAll(List.of("--ro-bind", "/etc", "/etc"));
        for (String file : HIDDEN_FILES) {
            if (Files.exists(Path.of(file), LinkOption.NOFOLLOW_LINKS)) {
                args.addAll(List.of("--ro-bind", "/dev/null", file));
            }
        }
        for (String dir : HIDDEN_DIRS) {
            if (Files.isDirectory(Path.of(dir), LinkOption.NOFOLLOW_LINKS)) {
                args.addAll(List.of("--tmpfs", dir));
            }
        }
        args.addAll(List.of("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"));
        return List.copyOf(args);
    }

    @Override
    public List<String> command(Path program, List<String> arguments, Path worktree) {
        List<String> command = new ArrayList<>(List.of(bwrap.toString(), "--unshare-all", "--die-with-parent",
                "--new-session", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"));
        command.addAll(mounts);
        command.addAll(List.of("--bind", worktree.toString(), WORKSPACE, "--remount-ro", "/", "--chdir", WORKSPACE,
                "--clearenv", "--setenv", "PATH", Programs.PATH, "--setenv", "HOME", WORKSPACE, "--setenv", "LANG",
                "C.UTF-8", "--", prlimit.toString(), "--fsize=" + maxFileBytes, "--core=0", "--", program.toString()));
        command.addAll(arguments);
        return command;
    }

    @Override
    public String home(Path worktree) {
        return WORKSPACE;
    }

    /** Its PID namespace ends with the command's first process: every process in it is killed. */
    @Override
    public boolean endsEveryProcess() {
        return true;
    }

    @Override
    public String name() {
        return "bubblewrap";
    }
}
