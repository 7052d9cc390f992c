package dev.switchboard.core.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Finds an allowed program on the fixed {@code PATH} the commands get ({@value #PATH}) — never on
 * the server's own {@code PATH}, never in the worktree or the working directory — so a file a
 * model wrote cannot pass for an allowed program that is not installed.
 */
public final class Programs {

    /** The only directories programs are taken from, in order; also the commands' {@code PATH}. */
    public static final String PATH = "/usr/local/bin:/usr/bin:/bin";
    private static final List<Path> DIRS = List.of(Path.of("/usr/local/bin"), Path.of("/usr/bin"), Path.of("/bin"));

    private Programs() {
    }

    /** The installed program {@code name} (a bare name, {@link CommandPolicy#check}); empty when none is. */
    public static Optional<Path> resolve(String name) {
        for (Path dir : DIRS) {
            Path candidate = dir.resolve(name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
