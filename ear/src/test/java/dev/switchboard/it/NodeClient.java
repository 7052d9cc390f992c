package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Node.js client of src/test/node/{@code name} (real packages no one here wrote, pinned in its
 * package.json), installed with npm into a work directory of its own under target/node — one per
 * test class, so classes running at once never install into the same directory — and run with the
 * machine's Node.js.
 */
final class NodeClient {

    private final Path work;

    private NodeClient(Path work) {
        this.work = work;
    }

    /** Installs client {@code name} into target/node/{@code owner}-{@code name}. */
    static NodeClient install(String name, String owner) throws IOException, InterruptedException {
        Path source = Path.of("src/test/node", name).toAbsolutePath();
        Path work = Path.of("target", "node", owner + "-" + name).toAbsolutePath();
        Files.createDirectories(work);
        try (Stream<Path> files = Files.list(source)) {
            for (Path file : files.toList()) {
                Files.copy(file, work.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        run(work, "npm", "install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error");
        return new NodeClient(work);
    }

    /** Runs {@code script} with {@code arguments}; what it saw (the JSON object it prints last, with {@code ok: true}). */
    JsonObject run(String script, String... arguments) throws IOException, InterruptedException {
        String[] command = new String[arguments.length + 2];
        command[0] = "node";
        command[1] = script;
        System.arraycopy(arguments, 0, command, 2, arguments.length);
        String output = run(work, command);
        JsonObject seen;
        try (JsonReader reader = Json.createReader(new StringReader(output.lines().reduce("", (a, b) -> b)))) {
            seen = reader.readObject();
        } catch (RuntimeException e) {
            throw new AssertionError("the client printed no result: " + output, e);
        }
        assertTrue(seen.getBoolean("ok"), output);
        return seen;
    }

    /**
     * Starts {@code script} as a server that runs until stopped; its output goes to a log file in
     * the work directory, whose first line the caller waits for.
     */
    Process spawn(String script, String... arguments) throws IOException {
        String[] command = new String[arguments.length + 2];
        command[0] = "node";
        command[1] = script;
        System.arraycopy(arguments, 0, command, 2, arguments.length);
        return new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(work.resolve(script + ".log").toFile()).start();
    }

    /** The output of a script started with {@link #spawn}, so far. */
    String output(String script) throws IOException {
        Path log = work.resolve(script + ".log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Runs a command in {@code dir}; its output, or a failure with it when it exits non-zero. */
    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Path log = dir.resolve(command[0] + "-" + (command.length > 1 ? Path.of(command[1]).getFileName() : "") + ".log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean ended = process.waitFor(300, TimeUnit.SECONDS);
        String output = Files.readString(log);
        if (!ended) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 300 s: " + output);
        }
        assertEquals(0, process.exitValue(), () -> String.join(" ", command) + " failed: " + output);
        return output;
    }
}
