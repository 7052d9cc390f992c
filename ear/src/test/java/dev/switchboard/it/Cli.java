package dev.switchboard.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code switchboard} client run as a process, as a user runs it: {@code java -jar} of the
 * jar the {@code cli} module built, with the server named by {@code SWITCHBOARD_URL}.
 */
final class Cli {

    static final Path JAR = Path.of(System.getProperty("project.root", ".."), "cli", "target", "switchboard-cli.jar")
            .toAbsolutePath().normalize();

    private Cli() {
    }

    /** What one command printed, and how it exited. */
    record Result(int exit, String out, String err) {

        List<String> lines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static ProcessBuilder command(String url, Map<String, String> env, String... args) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("no client jar at " + JAR + ": build the cli module first");
        }
        // The client compiler and the serial collector: a command lives for a second, and the tests
        // start about a hundred of them while instances run beside them on two cores.
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", JAR.toString()));
        line.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(line);
        builder.environment().keySet().removeIf(k -> k.startsWith("SWITCHBOARD_") || k.startsWith("JAGC_"));
        builder.environment().put("SWITCHBOARD_URL", url);
        builder.environment().putAll(env);
        return builder;
    }

    /** Runs a command to its end (at most two minutes). */
    static Result run(String url, String... args) {
        return run(url, Map.of(), args);
    }

    static Result run(String url, Map<String, String> env, String... args) {
        return withInput(url, env, "", args);
    }

    /** As {@link #run(String, Map, String...)}, with {@code input} on the command's standard input. */
    static Result withInput(String url, Map<String, String> env, String input, String... args) {
        try {
            Process process = command(url, env, args).start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Thread errors = drain(process.getErrorStream(), err);
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("switchboard " + String.join(" ", args) + " did not end within 120 s");
            }
            errors.join(5_000);
            return new Result(process.exitValue(), out, err.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Thread drain(InputStream in, ByteArrayOutputStream into) {
        Thread thread = new Thread(() -> {
            try {
                in.transferTo(into);
            } catch (IOException ended) {
                // the process is gone
            }
        }, "cli-drain");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
