package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.Trees;
import jakarta.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A newcomer's first commands, as they would type them: the repository cloned into a new directory
 * only its owner can read (with this working tree's uncommitted changes, so that what is tested is
 * what would be committed), nothing built there before, the README's run command run as pasted
 * (embedded H2 database, echo engine) until {@code /health/ready} answers 200, one message that
 * must succeed, then the README's "Try it" block — the command-line client building itself on its
 * first use — and the docs' commands against a running server, each checked for what it prints.
 *
 * <p>The clone's Maven sees the local repository without this project's own artifacts (a view of
 * it without {@code dev/switchboard}): a newcomer has none, and an earlier {@code install} must not
 * hide a module the reactor cannot resolve. The server listens on 9080, which no other test uses.
 */
@Order(1) // the longest class (a whole build in the clone): started first in the parallel run (ear/pom.xml)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FreshCloneIT {

    private static final Path ROOT = Instance.ROOT;
    private static final Path LOGS = Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath()
            .resolve("fresh-clone");
    private static final Api API = new Api("http://localhost:9080");

    private static Path home;
    private static Path clone;
    private static Process server;

    @BeforeAll
    static void cloneAndRun() throws Exception {
        if (!Files.exists(ROOT.resolve(".git"))) {
            throw new IllegalStateException("FreshCloneIT clones the project: " + ROOT + " is not a git checkout");
        }
        assertEquals(0, readiness(), "port 9080 already answers: stop the server running there first");
        Trees.delete(LOGS);
        Files.createDirectories(LOGS);
        home = Files.createTempDirectory(LOGS, "home-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        clone = home.resolve("switchboard");
        run(List.of("git", "clone", "--quiet", ROOT.toString(), clone.toString()), ROOT, "clone", 120);
        carryOverUncommittedChanges();
        assertFalse(Files.exists(clone.resolve("target")), "nothing built in the clone");

        String command = runCommand();
        assertEquals("./mvnw liberty:run", command, "the README's run command");
        server = shell(command, clone, LOGS.resolve("run.log"));
        awaitReady();
    }

    /** Ctrl-C, as a newcomer stops it (docs/operations.md): the interrupt goes to the command's whole process group. */
    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                new ProcessBuilder("kill", "-INT", "--", "-" + server.pid()).start().waitFor(10, TimeUnit.SECONDS);
                boolean ended = server.waitFor(120, TimeUnit.SECONDS);
                if (!ended) {
                    server.descendants().forEach(ProcessHandle::destroyForcibly);
                    server.destroyForcibly();
                }
                assertTrue(ended, "the README's run command did not end within 120 s of Ctrl-C");
                Await.until(Duration.ofSeconds(30), () -> readiness() == 0, "nothing answering on 9080 after Ctrl-C");
            }
        } finally {
            if (home != null) {
                Trees.delete(home); // the clone and its Liberty runtime: half a gigabyte
            }
        }
    }

    @Test
    @Order(1)
    void theReadmeRunCommandServesAMessageOnTheEmbeddedDatabase() {
        JsonObject posted = API.message("readme", "hello from the README");
        JsonObject done = API.awaitRun(posted.getString("run_id"), 30);
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals("{\"type\":\"message\",\"text\":\"hello from the README\",\"delivery_mode\":\"followUp\"}",
                done.getJsonObject("output").toString());
        String ready = API.get("/health/ready").body();
        assertTrue(ready.contains("\"database\":\"reachable\""), ready);
    }

    /** The README's "Try it" block pasted into bash: every command answers, the client builds itself. */
    @Test
    @Order(2)
    void theReadmesExamplesRunAsPasted() throws Exception {
        String output = paste(Markdown.bashBlockAfter(read("README.md"), "Try it"), "readme-examples");
        assertTrue(output.contains("\"status\":\"succeeded\""), output);
        assertTrue(output.contains("\"cancelled_run_ids\""), output);
        assertTrue(output.matches("(?s).*\"previous_response_id\":\"resp_\\w+\".*\"text\":\"and again\".*"),
                "the README's response is continued: " + output);
        assertTrue(output.contains("turn/completed"), output);
        assertTrue(output.matches("(?s).*\"user_input\":\"hello chat\",\"state\":\"Completed\",\"response\":\"hello chat\".*"),
                "the chat thread's turn is read back: " + output);
        assertTrue(output.contains("switchboard: building the client (once)"), "the client built itself: " + output);
        assertTrue(output.matches("(?s).*\\nstarted turn_\\S+ on demo\\n.*\\nassistant: hello\\n.*"), "message --wait shows the turn live: " + output);
        assertTrue(output.matches("(?s).*\\n\\S+ succeeded\\n.*"), "message --wait ends with the run line: " + output);
        assertTrue(output.matches("(?s).*\\n\\s+\\d+  turn/completed\\s+demo .*"), "tail replays the thread: " + output);
        assertTrue(output.contains("   assistant: hello"), "threads read shows the reply: " + output);
        assertFalse(output.contains("\"error\":{"), output);
    }

    /** docs/cli.md's first steps and jagc's smoke flow. */
    @Test
    @Order(3)
    void theClientsDocumentedCommandsRunAsPasted() throws Exception {
        String cli = read("docs/cli.md");
        String first = paste(Markdown.bashBlockAfter(cli, "It needs only Java 17"), "cli-first-steps");
        assertTrue(first.contains("Usage: switchboard"), first);
        assertTrue(first.matches("(?s).*\\S+ succeeded\\n.*"), "the message was followed to its end: " + first);
        String jagc = paste(Markdown.bashBlockAfter(cli, "jagc's smoke flow through this client"), "cli-jagc-smoke");
        assertTrue(jagc.contains("{\"ok\":true}"), "health --json: " + jagc);
        assertTrue(jagc.contains("exit 1"), "a missing run exits 1: " + jagc);
        assertFalse(jagc.contains("Exception"), jagc);
    }

    /** The chat gateway's, delegation's and the operators' examples for a default server. */
    @Test
    @Order(4)
    void theOtherDocumentedExamplesRunAsPasted() throws Exception {
        String chat = paste(Markdown.bashBlockAfter(read("docs/chat.md"), "Try it"), "chat");
        assertTrue(chat.contains("event: turn/completed"), "the thread's events replayed: " + chat);
        assertTrue(chat.matches("(?s).*\\{\"thread_id\":\"[-0-9a-f]{36}\",\"status\":\"(started|queued)\".*"),
                "the web channel's message reached the same thread: " + chat);
        assertTrue(chat.contains("\"active_thread\":"), "the thread list: " + chat);
        assertFalse(chat.contains("\"error\":{"), chat);
        String delegation = paste(Markdown.bashBlockAfter(read("docs/delegation.md"), "and the `session_root`."), "delegation");
        assertTrue(delegation.contains("\"delegated\":false"), delegation);
        String operations = paste(Markdown.bashBlockAfter(read("docs/operations.md"), "Day-to-day operations from a shell"),
                "operations");
        assertTrue(operations.contains("Paused event processing"), operations);
        assertTrue(operations.contains("Resumed event processing"), operations);
    }

    /** The Open Responses and workspaces pages' examples for a default server. */
    @Test
    @Order(5)
    void theResponsesAndWorkspacesExamplesRunAsPasted() throws Exception {
        String page = read("docs/responses.md");
        String created = paste(Markdown.bashBlockAfter(page, "# Open Responses"), "responses-create");
        assertTrue(created.matches("(?s)\\{\"id\":\"resp_\\w+\".*\"status\":\"completed\".*\"text\":\"hello\".*"), created);
        String streamed = paste(Markdown.bashBlockAfter(page, "## Streaming"), "responses-stream");
        assertTrue(streamed.contains("event: response.created") && streamed.contains("event: response.completed")
                && streamed.strip().endsWith("data: [DONE]"), streamed);
        String compacted = paste(Markdown.bashBlockAfter(page, "## `POST /v1/responses/compact`"), "responses-compact");
        assertTrue(compacted.contains("\"type\":\"compaction\""), compacted);
        String listed = paste(Markdown.bashBlockAfter(page, "`GET /v1/responses/{id}/input_items`"), "responses-input-items");
        assertTrue(listed.matches("(?s)\\{\"object\":\"list\",\"data\":\\[\\{\"id\":\"item_\\w+_0\".*\"text\":\"list me\".*"), listed);
        String login = paste(Markdown.bashBlockAfter(read("docs/api.md"), "jagc's OAuth login broker"), "jagc-login");
        assertTrue(login.contains("{\"error\":{\"code\":\"auth_login_provider_not_found\""), login);
        String workspace = paste(Markdown.bashBlockAfter(read("docs/workspaces.md"), "Try it"), "workspaces");
        assertTrue(workspace.contains("{\"thread_key\":\"demo\",\"enabled\":true"), workspace);
        assertTrue(workspace.contains("\"workspace\":{\"base\":"), workspace);
        assertTrue(workspace.contains("\"status\":\"completed\""), workspace);
        assertFalse(workspace.contains("\"error\":{"), workspace);
    }

    // ------------------------------------------------------------------ the clone and its commands

    /** The working tree's edits, new files and deletions (staged or not), so that the clone is what a commit would hold. */
    private static void carryOverUncommittedChanges() throws IOException, InterruptedException {
        List<String> changed = new ArrayList<>(git("diff", "-z", "--name-only", "--no-renames", "HEAD"));
        changed.addAll(git("ls-files", "-z", "--others", "--exclude-standard"));
        for (String file : changed) {
            Path from = ROOT.resolve(file);
            Path to = clone.resolve(file);
            if (Files.isRegularFile(from, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(to.getParent());
                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            } else if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(to);
            }
        }
    }

    /** The NUL-separated names a git command prints. */
    private static List<String> git(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", ROOT.toString()));
        command.addAll(List.of(arguments));
        Process git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(git.waitFor(60, TimeUnit.SECONDS) && git.exitValue() == 0, "git " + String.join(" ", arguments) + " failed");
        return Stream.of(out.split("\0")).filter(f -> !f.isEmpty()).toList();
    }

    /** The run command of the README's "The two commands", without its comment. */
    private static String runCommand() throws IOException {
        String block = Markdown.bashBlockAfter(read("README.md"), "## The two commands");
        return block.lines().filter(l -> l.contains("liberty:run")).findFirst()
                .map(l -> l.replaceFirst("\\s+#.*$", "").strip())
                .orElseThrow(() -> new AssertionError("the README's two commands name no liberty:run"));
    }

    private static String read(String file) throws IOException {
        return Files.readString(clone.resolve(file), StandardCharsets.UTF_8);
    }

    /** Runs {@code script} with bash in the clone as a user pastes it; what it printed, within two minutes. */
    private static String paste(String script, String name) throws IOException, InterruptedException {
        Path log = LOGS.resolve(name + ".log");
        Process bash = shell(script, clone, log);
        assertTrue(bash.waitFor(180, TimeUnit.SECONDS), name + ": did not stop within 180 s; see " + log);
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /**
     * {@code bash -c script} in {@code dir} with a newcomer's environment: none of the server's
     * settings, and Maven on a local repository that holds none of this project's artifacts.
     */
    private static Process shell(String script, Path dir, Path log) throws IOException {
        // setsid: a process group of its own, as a terminal gives a command (Ctrl-C reaches all of it).
        // env --default-signal=INT: SIGINT handled as in a terminal's foreground job even when the build
        // itself was started in the background of a non-interactive shell, which ignores SIGINT for all
        // it starts (a JVM that starts with SIGINT ignored never stops on Ctrl-C: the test then hung).
        ProcessBuilder pb = new ProcessBuilder("setsid", "env", "--default-signal=INT", "bash", "-c", script)
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("DB_") || k.startsWith("SWITCHBOARD_") || k.startsWith("HTTP_")
                || k.startsWith("WLP_") || k.startsWith("MAVEN_") || k.equals("JVM_ARGS") || k.startsWith("JAGC_"));
        env.put("MAVEN_OPTS", "-Dmaven.repo.local=" + repositoryWithoutThisProject());
        return pb.start();
    }

    private static Path repositoryWithoutThisProject() throws IOException {
        Path view = home.resolve("m2-repository");
        if (Files.isDirectory(view)) {
            return view;
        }
        Path repository = Path.of(System.getProperty("it.maven.repo.local",
                System.getProperty("user.home") + "/.m2/repository"));
        Files.createDirectories(view.resolve("dev"));
        try (Stream<Path> entries = Files.list(repository)) {
            for (Path entry : entries.toList()) {
                if (!entry.getFileName().toString().equals("dev")) {
                    Files.createSymbolicLink(view.resolve(entry.getFileName().toString()), entry);
                }
            }
        }
        Path dev = repository.resolve("dev");
        if (Files.isDirectory(dev)) {
            try (Stream<Path> groups = Files.list(dev)) {
                for (Path group : groups.filter(g -> !g.getFileName().toString().equals("switchboard")).toList()) {
                    Files.createSymbolicLink(view.resolve("dev").resolve(group.getFileName().toString()), group);
                }
            }
        }
        return view;
    }

    private static void run(List<String> command, Path dir, String name, int seconds) throws IOException, InterruptedException {
        File log = LOGS.resolve(name + ".log").toFile();
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log).start();
        assertTrue(p.waitFor(seconds, TimeUnit.SECONDS), name + " did not end within " + seconds + " s; see " + log);
        assertEquals(0, p.exitValue(), name + " failed; see " + log);
    }

    /** A newcomer's first build and start, on a machine busy with the other tests: ten minutes at most. */
    private static void awaitReady() throws InterruptedException {
        Await.until(Duration.ofMinutes(10), () -> {
            if (!server.isAlive()) {
                throw new AssertionError("the README's run command exited with " + server.exitValue() + ":\n"
                        + tail(LOGS.resolve("run.log")));
            }
            return readiness() == 200;
        }, "the README's run command ready (see " + LOGS.resolve("run.log") + ")");
    }

    /** What {@code /health/ready} on 9080 answers; 0 when nothing listens there. */
    private static int readiness() {
        try {
            return API.send(API.request("/health/ready").GET()).status();
        } catch (IllegalStateException refused) {
            return 0;
        }
    }

    private static String tail(Path log) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + e + ")";
        }
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
