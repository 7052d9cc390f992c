package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/** A thread's workspace as a client turns it on and reads it, and the worktrees its turns leave under the root. */
final class WorkspaceCalls {

    private WorkspaceCalls() {
    }

    /** A new thread named {@code prefix} + a UUID, its workspace turned on (and still empty). */
    static String enable(Api api, String prefix) {
        String thread = prefix + UUID.randomUUID();
        Api.Reply r = api.send(api.request("/v1/threads/" + thread + "/workspace").PUT(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, r.status(), r.body());
        assertTrue(r.json().getBoolean("enabled"));
        assertTrue(r.json().isNull("head"));
        return thread;
    }

    /** A turn's change set as {@code "<path> <change>"}. */
    static List<String> files(JsonObject change) {
        return change.getJsonArray("files").getValuesAs(JsonObject.class).stream()
                .map(f -> f.getString("path") + " " + f.getString("change")).toList();
    }

    /** Every per-turn worktree that exists now under {@code root}, under every thread. */
    static List<Path> worktrees(Path root) {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> threads = Files.list(root)) {
            for (Path thread : threads.toList()) {
                Path dir = thread.resolve("worktrees");
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> trees = Files.list(dir)) {
                        found.addAll(trees.toList());
                    }
                }
            }
        } catch (IOException e) {
            return List.of(Path.of("unreadable"));
        }
        return found;
    }
}
