package dev.switchboard.core.workspace;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which commands the {@code run} tool may execute: programs named on an allow-list
 * ({@code SWITCHBOARD_WORKSPACE_COMMANDS}, comma-separated), given by bare name and started without
 * a shell, so an argument is only ever an argument. Everything else is refused with the reason.
 *
 * <p>Some programs start other programs: a launcher ({@code timeout}, {@code env}, {@code nice},
 * {@code xargs}, {@code find -exec}, …) is allowed only when the program it would start is allowed
 * too, checked the same way; a program that runs what a script or a string of its arguments says
 * (a shell, {@code sudo}, {@code busybox}, …) can never be checked, and is refused even when named.
 * The sandbox holds what an allowed program does; this list keeps a model to the programs an
 * operator meant.
 */
public final class CommandPolicy {

    private static final Pattern PROGRAM = Pattern.compile("[A-Za-z0-9._+-]{1,64}");

    /**
     * How a launcher's arguments lead to the program it starts: the options that take a value
     * (short ones as {@code -x}, long ones as {@code --name}; {@code --name=value} takes none), how
     * many operands come before the program, whether {@code NAME=VALUE} words are skipped, and the
     * program it starts when none is named (null: it starts nothing).
     */
    private record Launcher(Set<String> valued, int operands, boolean assignments, String byDefault) {
    }

    private static final java.util.Map<String, Launcher> LAUNCHERS = java.util.Map.ofEntries(
            java.util.Map.entry("timeout", new Launcher(Set.of("-s", "--signal", "-k", "--kill-after"), 1, false, null)),
            java.util.Map.entry("nice", new Launcher(Set.of("-n", "--adjustment"), 0, false, null)),
            java.util.Map.entry("nohup", new Launcher(Set.of(), 0, false, null)),
            java.util.Map.entry("setsid", new Launcher(Set.of(), 0, false, null)),
            java.util.Map.entry("stdbuf", new Launcher(Set.of("-i", "--input", "-o", "--output", "-e", "--error"), 0, false, null)),
            java.util.Map.entry("ionice", new Launcher(Set.of("-c", "--class", "-n", "--classdata"), 0, false, null)),
            java.util.Map.entry("env", new Launcher(Set.of("-u", "--unset", "-C", "--chdir"), 0, true, null)),
            java.util.Map.entry("xargs", new Launcher(Set.of("-a", "--arg-file", "-d", "--delimiter", "-E", "-e", "--eof",
                    "-I", "-i", "--replace", "-L", "-l", "--max-lines", "-n", "--max-args", "-P", "--max-procs", "-s",
                    "--max-chars", "--process-slot-var"), 0, false, "echo")),
            java.util.Map.entry("time", new Launcher(Set.of("-f", "--format", "-o", "--output"), 0, false, null)),
            java.util.Map.entry("chrt", new Launcher(Set.of("-T", "--sched-runtime", "-P", "--sched-period", "-D",
                    "--sched-deadline"), 1, false, null)),
            java.util.Map.entry("taskset", new Launcher(Set.of(), 1, false, null)),
            java.util.Map.entry("flock", new Launcher(Set.of("-w", "--timeout", "-E", "--conflict-exit-code"), 1, false,
                    null)));

    /** Programs that run what a script, a string or their configuration says: nothing to check. */
    private static final Set<String> UNCHECKABLE = Set.of("sh", "bash", "dash", "zsh", "ksh", "mksh", "csh", "tcsh",
            "fish", "busybox", "sudo", "su", "doas", "runuser", "setpriv", "chroot", "unshare", "nsenter", "strace",
            "ltrace", "gdb", "watch", "script", "expect", "parallel", "bwrap", "prlimit", "systemd-run", "ssh");

    /** {@code find}'s actions that start a program: the word after them. */
    private static final Set<String> FIND_ACTIONS = Set.of("-exec", "-execdir", "-ok", "-okdir");

    private final Set<String> allowed;

    private CommandPolicy(Set<String> allowed) {
        this.allowed = Collections.unmodifiableSortedSet(new TreeSet<>(allowed));
    }

    /** The policy a comma-separated list of program names describes; an empty list allows nothing. */
    public static CommandPolicy parse(String list) {
        Set<String> names = new TreeSet<>();
        if (list != null) {
            for (String name : Arrays.stream(list.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList()) {
                if (!PROGRAM.matcher(name).matches()) {
                    throw new IllegalArgumentException("'" + name + "' is not a program name (letters, digits, . _ + -)");
                }
                names.add(name);
            }
        }
        return new CommandPolicy(names);
    }

    /** The allowed programs, in name order. */
    public Set<String> allowed() {
        return allowed;
    }

    /** Returns {@code argv} when it may run; a {@link WorkspaceRefusal} says why not. */
    public List<String> check(List<String> argv) {
        if (argv == null || argv.isEmpty() || argv.get(0) == null || argv.get(0).isBlank()) {
            throw new WorkspaceRefusal("a command is required: a program and its arguments");
        }
        for (String argument : argv) {
            if (argument == null || argument.indexOf('\0') >= 0) {
                throw new WorkspaceRefusal("an argument may not be null or contain a NUL character");
            }
        }
        checkFrom(argv, 0, 0);
        return List.copyOf(argv);
    }

    /** Checks the program at {@code argv[at]} and, if it launches one, the program it starts. */
    private void checkFrom(List<String> argv, int at, int depth) {
        String program = argv.get(at);
        if (program.contains("/") || program.contains("\\")) {
            throw new WorkspaceRefusal("give the program by name, not by path: " + program);
        }
        if (!allowed.contains(program)) {
            throw new WorkspaceRefusal(program + " is not an allowed command"
                    + (allowed.isEmpty() ? " (no command is allowed)" : " (allowed: " + String.join(", ", allowed) + ")")
                    + (depth > 0 ? ", and " + argv.get(0) + " would start it" : ""));
        }
        if (UNCHECKABLE.contains(program)) {
            throw new WorkspaceRefusal(program + " runs whatever its script or arguments say, which cannot be checked:"
                    + " it is never run, even when allowed");
        }
        if (depth > 8) {
            throw new WorkspaceRefusal("too many launchers in a row");
        }
        if (program.equals("find")) {
            for (int i = at + 1; i < argv.size(); i++) {
                if (FIND_ACTIONS.contains(argv.get(i))) {
                    if (i + 1 >= argv.size()) {
                        throw new WorkspaceRefusal("find " + argv.get(i) + " names no program");
                    }
                    checkFrom(argv, i + 1, depth + 1);
                }
            }
            return;
        }
        Launcher launcher = LAUNCHERS.get(program);
        if (launcher != null) {
            int target = target(argv, at, launcher);
            if (target < 0) {
                if (launcher.byDefault() != null && !allowed.contains(launcher.byDefault())) {
                    throw new WorkspaceRefusal(launcher.byDefault() + " is not an allowed command, and " + program
                            + " would start it");
                }
                return;
            }
            checkFrom(argv, target, depth + 1);
        }
    }

    /** Where the program a launcher starts is in {@code argv}; -1 when it names none. */
    private static int target(List<String> argv, int at, Launcher launcher) {
        String program = argv.get(at);
        int i = at + 1;
        while (i < argv.size()) {
            String word = argv.get(i);
            if (word.equals("--")) {
                i++;
                break;
            }
            if (!word.startsWith("-") || word.equals("-")) {
                break;
            }
            if (program.equals("env") && (word.equals("-S") || word.startsWith("--split-string"))) {
                throw new WorkspaceRefusal("env -S runs a command line from a string, which cannot be checked");
            }
            if (program.equals("flock") && (word.equals("-c") || word.startsWith("--command"))) {
                throw new WorkspaceRefusal("flock -c runs a command line through a shell, which cannot be checked");
            }
            i += launcher.valued().contains(word) ? 2 : 1;
        }
        i += launcher.operands();
        if (launcher.assignments()) {
            while (i < argv.size() && argv.get(i).indexOf('=') > 0) {
                i++;
            }
        }
        return i < argv.size() ? i : -1;
    }
}
