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
 */
public final class CommandPolicy {

    private static final Pattern PROGRAM = Pattern.compile("[A-Za-z0-9._+-]{1,64}");

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
        String program = argv.get(0);
        if (program.contains("/") || program.contains("\\")) {
            throw new WorkspaceRefusal("give the program by name, not by path: " + program);
        }
        if (!allowed.contains(program)) {
            throw new WorkspaceRefusal(program + " is not an allowed command"
                    + (allowed.isEmpty() ? " (no command is allowed)" : " (allowed: " + String.join(", ", allowed) + ")"));
        }
        for (String argument : argv) {
            if (argument == null || argument.indexOf('\0') >= 0) {
                throw new WorkspaceRefusal("an argument may not be null or contain a NUL character");
            }
        }
        return List.copyOf(argv);
    }
}
