package dev.switchboard.core.engine.tool;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.workspace.CommandPolicy;
import dev.switchboard.core.workspace.Sandbox;
import dev.switchboard.core.workspace.WorkspaceRefusal;
import dev.switchboard.core.workspace.Worktree;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The workspace tools of one turn, bound to its {@link Worktree}: {@code list_files},
 * {@code read_file}, {@code write_file}, {@code apply_diff}, {@code search} and {@code run}. Every
 * path goes through the worktree's confinement first (absolute paths, {@code ..}, links leading
 * out and {@code .git} are refused with the reason as the tool's error); {@code run} executes only
 * programs on the allow-list, without a shell, in the worktree, within a time and output limit.
 * Which of them a turn is offered is configured ({@link Settings#enabled}); none by default.
 */
public final class WorkspaceTools {

    /** Every workspace tool, in the order they are declared. */
    public static final List<String> ALL = List.of("list_files", "read_file", "write_file", "apply_diff", "search", "run");

    static final int MAX_READ_BYTES = 64 * 1024;
    static final int MAX_LISTED = 1_000;
    static final int MAX_MATCHES = 100;
    static final long MAX_SEARCHED_FILE = 1024 * 1024;

    /**
     * @param enabled the tools offered (a subset of {@link #ALL}); empty: workspaces without tools
     * @param commands the programs {@code run} may start
     * @param commandTimeout how long one command may take before it is killed with what it started
     * @param outputLimit how many bytes of a command's output the model reads
     * @param sandbox where the commands run
     */
    public record Settings(Set<String> enabled, CommandPolicy commands, Duration commandTimeout, int outputLimit,
            Sandbox sandbox) {

        public Settings {
            enabled = Set.copyOf(enabled);
            for (String name : enabled) {
                if (!ALL.contains(name)) {
                    throw new IllegalArgumentException("unknown workspace tool '" + name + "' (known: "
                            + String.join(", ", ALL) + ")");
                }
            }
        }
    }

    private WorkspaceTools() {
    }

    /** The enabled tools, working in {@code worktree}; {@code run}'s commands execute on {@code commands}. */
    public static List<FunctionTool> of(Worktree worktree, Settings settings, Executor commands) {
        Bound bound = new Bound(worktree, settings);
        List<FunctionTool> tools = new ArrayList<>();
        for (String name : ALL) {
            if (!settings.enabled().contains(name)) {
                continue;
            }
            tools.add(switch (name) {
                case "list_files" -> new Tool(name, "Lists the files of the workspace (or of one directory in it), one"
                        + " path per line.", schema(List.of(), "path", "a directory, relative to the workspace; default ."),
                        bound::list, null);
                case "read_file" -> new Tool(name, "Reads a text file of the workspace.",
                        schema(List.of("path"), "path", "the file, relative to the workspace"), bound::read, null);
                case "write_file" -> new Tool(name, "Writes a file of the workspace (made with its directories when"
                        + " missing, replaced when there).", schema(List.of("path", "content"), "path",
                        "the file, relative to the workspace", "content", "the file's whole new text"), bound::write, null);
                case "apply_diff" -> new Tool(name, "Applies a unified diff (--- a/<path>, +++ b/<path>, @@ hunks;"
                        + " several files at once) to the workspace: all of it, or nothing when a hunk does not fit.",
                        schema(List.of("diff"), "diff", "the unified diff"), bound::applyDiff, null);
                case "search" -> new Tool(name, "Finds the lines of the workspace's text files that contain a text,"
                        + " as <path>:<line>: <text>.", schema(List.of("text"), "text", "the text to find (not a pattern)",
                        "path", "a directory or file to search in; default ."), bound::search, null);
                case "run" -> new Tool(name, "Runs a command in the workspace, without a shell: only the programs "
                        + String.join(", ", settings.commands().allowed()) + ". Answers its output and, when not 0,"
                        + " its exit code.", runSchema(), bound::run, commands);
                default -> throw new IllegalStateException(name);
            });
        }
        return tools;
    }

    /** A tool of this set: its body runs on the caller's thread, or on {@code executor} when it may take long. */
    private record Tool(String name, String description, JsonObject parameters, Function<JsonObject, String> body,
            Executor executor) implements FunctionTool {

        @Override
        public CompletionStage<String> call(JsonObject arguments) {
            if (executor == null) {
                return CompletableFuture.completedFuture(body.apply(arguments));
            }
            return CompletableFuture.supplyAsync(() -> body.apply(arguments), executor);
        }
    }

    /** The tools' work in one worktree. */
    private record Bound(Worktree worktree, Settings settings) {

        String list(JsonObject arguments) {
            Path dir = worktree.confinement().resolve(text(arguments, "path", "."));
            if (!Files.isDirectory(dir)) {
                throw new WorkspaceRefusal(shown(dir) + " is not a directory");
            }
            List<String> paths = new ArrayList<>();
            int[] more = {0};
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(p -> !p.equals(dir)).filter(p -> !isGit(p))
                        .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p))
                        .sorted().forEach(p -> {
                            if (paths.size() < MAX_LISTED) {
                                paths.add(shown(p));
                            } else {
                                more[0]++;
                            }
                        });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (paths.isEmpty()) {
                return "(no files)";
            }
            return String.join("\n", paths) + (more[0] > 0 ? "\n[" + more[0] + " more not listed]" : "");
        }

        String read(JsonObject arguments) {
            Path file = worktree.confinement().resolve(text(arguments, "path", null));
            if (!Files.isRegularFile(file)) {
                throw new WorkspaceRefusal(shown(file) + (Files.isDirectory(file) ? " is a directory" : " does not exist"));
            }
            try (InputStream in = Files.newInputStream(file)) {
                byte[] head = in.readNBytes(MAX_READ_BYTES);
                long rest = Files.size(file) - head.length;
                return new String(head, StandardCharsets.UTF_8) + (rest > 0 ? "\n[" + rest + " more bytes not shown]" : "");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String write(JsonObject arguments) {
            Path file = worktree.confinement().resolve(text(arguments, "path", null));
            if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new WorkspaceRefusal(shown(file) + " is a directory");
            }
            if (Files.isSymbolicLink(file)) {
                throw new WorkspaceRefusal(shown(file) + " is a symbolic link: write the file it points to");
            }
            byte[] content = text(arguments, "content", null).getBytes(StandardCharsets.UTF_8);
            Path written = null;
            try {
                Files.createDirectories(file.getParent());
                // Written beside it, then put in its place: the name is replaced, never written through,
                // so a link (hard or symbolic) made there since the check is replaced, not followed.
                written = Files.createTempFile(file.getParent(), ".write-", ".tmp");
                Files.write(written, content);
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    Files.setPosixFilePermissions(written, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS));
                } else {
                    Files.setPosixFilePermissions(written, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                }
                Files.move(written, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                written = null;
            } catch (IOException e) {
                throw new WorkspaceRefusal("cannot write " + shown(file) + ": " + e.getMessage());
            } finally {
                if (written != null) {
                    try {
                        Files.deleteIfExists(written);
                    } catch (IOException ignored) {
                        // a temporary file left beside it; the next turn's worktree starts without it
                    }
                }
            }
            return "wrote " + content.length + " bytes to " + shown(file);
        }

        String applyDiff(JsonObject arguments) {
            List<String> changed = worktree.applyDiff(text(arguments, "diff", null));
            return "applied; changed " + String.join(", ", changed.stream().sorted().toList());
        }

        String search(JsonObject arguments) {
            String wanted = text(arguments, "text", null);
            if (wanted.isEmpty()) {
                throw new WorkspaceRefusal("text may not be empty");
            }
            Path from = worktree.confinement().resolve(text(arguments, "path", "."));
            List<String> matches = new ArrayList<>();
            int[] more = {0};
            try (Stream<Path> files = Files.walk(from)) {
                for (Path file : files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !isGit(p))
                        .sorted().toList()) {
                    if (Files.size(file) > MAX_SEARCHED_FILE) {
                        continue;
                    }
                    byte[] bytes = Files.readAllBytes(file);
                    if (binary(bytes)) {
                        continue;
                    }
                    String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
                    for (int i = 0; i < lines.length; i++) {
                        if (lines[i].contains(wanted)) {
                            if (matches.size() < MAX_MATCHES) {
                                matches.add(shown(file) + ":" + (i + 1) + ": " + lines[i].strip());
                            } else {
                                more[0]++;
                            }
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (matches.isEmpty()) {
                return "no line contains " + wanted;
            }
            return String.join("\n", matches) + (more[0] > 0 ? "\n[" + more[0] + " more matches not shown]" : "");
        }

        String run(JsonObject arguments) {
            JsonValue command = arguments.get("command");
            if (command == null || command.getValueType() != JsonValue.ValueType.ARRAY || command.asJsonArray().isEmpty()
                    || command.asJsonArray().stream().anyMatch(v -> !(v instanceof JsonString))) {
                throw new WorkspaceRefusal("command must be a non-empty array of strings: the program, then its arguments");
            }
            List<String> argv = command.asJsonArray().getValuesAs(JsonString.class).stream().map(JsonString::getString)
                    .toList();
            List<String> allowed = settings.commands().check(argv);
            return worktree.run(allowed, settings.sandbox(), settings.commandTimeout(), settings.outputLimit())
                    .asToolOutput();
        }

        private String shown(Path inside) {
            String shown = worktree.confinement().shown(inside);
            return shown.isEmpty() ? "." : shown;
        }

        private boolean isGit(Path p) {
            for (Path segment : worktree.confinement().root().relativize(p)) {
                if (segment.toString().equals(".git")) {
                    return true;
                }
            }
            return false;
        }
    }

    private static boolean binary(byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, 8_000); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    private static String text(JsonObject arguments, String name, String absent) {
        JsonValue value = arguments.get(name);
        if (value == null || value == JsonValue.NULL) {
            if (absent == null) {
                throw new WorkspaceRefusal(name + " is required");
            }
            return absent;
        }
        if (!(value instanceof JsonString s)) {
            throw new WorkspaceRefusal(name + " must be a string");
        }
        return s.getString();
    }

    /** An object schema of string properties given as name, description pairs. */
    private static JsonObject schema(List<String> required, String... properties) {
        JsonObjectBuilder props = Jsons.createObjectBuilder();
        for (int i = 0; i < properties.length; i += 2) {
            props.add(properties[i], Jsons.createObjectBuilder().add("type", "string").add("description", properties[i + 1]));
        }
        jakarta.json.JsonArrayBuilder names = Jsons.createArrayBuilder();
        required.forEach(names::add);
        return Jsons.createObjectBuilder().add("type", "object").add("properties", props)
                .add("required", names).add("additionalProperties", false).build();
    }

    private static JsonObject runSchema() {
        return Jsons.createObjectBuilder().add("type", "object")
                .add("properties", Jsons.createObjectBuilder().add("command", Jsons.createObjectBuilder()
                        .add("type", "array").add("items", Jsons.createObjectBuilder().add("type", "string"))
                        .add("description", "the program, then its arguments (no shell: no pipes, globs or variables)")))
                .add("required", Jsons.createArrayBuilder().add("command")).add("additionalProperties", false).build();
    }
}
