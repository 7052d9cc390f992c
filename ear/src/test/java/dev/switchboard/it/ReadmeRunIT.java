package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Starts the server exactly as the README says ({@code ./mvnw liberty:run}: embedded H2 database,
 * echo engine, nothing else) and posts a message. Runs in its own failsafe execution, after the
 * other integration tests, because it uses the default server directory and port 9080.
 */
class ReadmeRunIT {

    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    @Test
    void theReadmeRunCommandServesTheRunsApiOnTheEmbeddedDatabase() throws Exception {
        Api api = new Api("http://localhost:9080");
        File log = ROOT.resolve("target/readme-run.log").toFile();
        ProcessBuilder pb = new ProcessBuilder("./mvnw", "liberty:run").directory(ROOT.toFile())
                .redirectErrorStream(true).redirectOutput(log);
        pb.environment().keySet().removeIf(k -> k.startsWith("DB_") || k.startsWith("SWITCHBOARD_") || k.equals("HTTP_PORT"));
        Process maven = pb.start();
        try {
            awaitReady(api, maven, log);
            JsonObject posted = api.message("readme", "hello from the README");
            JsonObject done = api.awaitRun(posted.getString("run_id"), 30);
            assertEquals("succeeded", done.getString("status"));
            assertEquals("{\"type\":\"message\",\"text\":\"hello from the README\",\"delivery_mode\":\"followUp\"}",
                    done.getJsonObject("output").toString());
            String ready = api.get("/health/ready").body();
            assertTrue(ready.contains("\"database\":\"reachable\""), ready);
            runTheReadmesExamples();
        } finally {
            stop(maven);
        }
    }

    /**
     * The README's "Try it" block, pasted into bash as it is: each command must answer, the
     * captured run must succeed, and the stream must replay the turn's notifications and stop.
     */
    private static void runTheReadmesExamples() throws IOException, InterruptedException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        int tryIt = readme.indexOf("Try it");
        assertTrue(tryIt >= 0, "README has no Try it section");
        int start = readme.indexOf("```bash\n", tryIt) + "```bash\n".length();
        String block = readme.substring(start, readme.indexOf("```", start));
        File out = ROOT.resolve("target/readme-examples.log").toFile();
        Process bash = new ProcessBuilder("bash", "-c", block).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(out).start();
        assertTrue(bash.waitFor(120, TimeUnit.SECONDS), "the README's examples did not stop within 120 s");
        String output = Files.readString(out.toPath(), StandardCharsets.UTF_8);
        assertTrue(output.contains("\"status\":\"succeeded\""), output);
        assertTrue(output.contains("\"cancelled_run_ids\""), output);
        assertTrue(output.matches("(?s).*\"previous_response_id\":\"resp_\\w+\".*\"text\":\"and again\".*"),
                "the README's response is continued: " + output);
        assertTrue(output.contains("turn/completed"), output);
        assertTrue(output.matches("(?s).*\"user_input\":\"hello chat\",\"state\":\"Completed\",\"response\":\"hello chat\".*"),
                "the chat thread's turn is read back: " + output);
        assertTrue(output.matches("(?s).*\\nstarted turn_\\S+ on demo\\n.*\\nassistant: hello\\n.*"), "message --wait shows the turn live: " + output);
        assertTrue(output.matches("(?s).*\\n\\S+ succeeded\\n.*"), "message --wait ends with the run line: " + output);
        assertTrue(output.matches("(?s).*\\n\\s+\\d+  turn/completed\\s+demo .*"), "tail replays the thread: " + output);
        assertTrue(output.contains("   assistant: hello"), "threads read shows the reply: " + output);
        assertFalse(output.contains("\"error\":{"), output);
    }

    private static void awaitReady(Api api, Process maven, File log) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 300_000;
        while (System.currentTimeMillis() < deadline) {
            if (!maven.isAlive()) {
                throw new AssertionError("./mvnw liberty:run exited with " + maven.exitValue() + "; see " + log);
            }
            try {
                if (api.send(api.request("/health/ready").GET()).status() == 200) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // connection refused while the server starts
            }
            Thread.sleep(500);
        }
        throw new AssertionError("./mvnw liberty:run did not become ready in 300 s; see " + log);
    }

    private static void stop(Process maven) throws IOException, InterruptedException {
        String wlp = System.getProperty("wlp.home", ROOT.resolve("target/liberty/wlp").toString());
        Process stop = new ProcessBuilder(wlp + "/bin/server", "stop", "switchboard").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        stop.waitFor(120, TimeUnit.SECONDS);
        maven.descendants().forEach(ProcessHandle::destroy);
        maven.destroy();
        if (!maven.waitFor(60, TimeUnit.SECONDS)) {
            maven.descendants().forEach(ProcessHandle::destroyForcibly);
            maven.destroyForcibly();
        }
    }
}
