package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Per-turn workspaces end to end on Liberty and PostgreSQL: the scripted engine writes, patches,
 * reads and runs commands through the workspace tools as a model would; what a turn committed is
 * read from its output, its record ({@code GET /v1/runs/{id}/workspace} and {@code turn.json} on
 * disk) and the next turn's view of the files; stray worktrees from the worktree directories. One
 * thread's line across instances, and a turn cut by kill -9 run again on a clean tree, are
 * {@code MultiInstanceIT}'s. On DelegationIT's instance, with {@link #settings} added to it.
 */
@Order(4) // among the longest classes: started early in the parallel run (ear/pom.xml)
@ResourceLock(value = HostileInputIT.LOCK, mode = ResourceAccessMode.READ) // beside DelegationIT, never beside the classes that pause it
class WorkspaceIT {

    private static final Duration MINUTE = Duration.ofSeconds(60);
    private static final Path WORK = Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath();

    private static Instance instance;
    private static final Path ROOT = WORK.resolve("workspaces");
    private static Path gates;

    /**
     * This class's settings on the instance it shares with DelegationIT and RpcPolicyIT (an empty
     * workspace root): they act only on threads that enable a workspace, which the others never do.
     */
    static Map<String, String> settings(Map<String, String> env) {
        try {
            deleteTree(ROOT);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        env.put("SWITCHBOARD_WORKSPACE_ROOT", ROOT.toString());
        env.put("SWITCHBOARD_WORKSPACE_TOOLS", "all");
        env.put("SWITCHBOARD_WORKSPACE_COMMANDS", "ls,ln,cat,timeout,mytool");
        env.put("SWITCHBOARD_WORKSPACE_COMMAND_TIMEOUT_MS", "5000");
        env.put("SWITCHBOARD_WORKSPACE_PRUNE_EVERY_MS", "2000"); // pruning passes while the other tests' turns run
        // As the issue found it: an empty entry on the server's own PATH (the working directory,
        // which is a command's worktree). Programs must still come from the fixed PATH only.
        env.put("PATH", System.getenv("PATH") + ":");
        return env;
    }

    @BeforeAll
    static void start() throws IOException {
        instance = DelegationIT.withWorkspaces();
        gates = Files.createDirectories(WORK.resolve("workspace-gates"));
    }

    @AfterAll
    static void stop() {
        DelegationIT.finished(WorkspaceIT.class);
    }

    @Test
    void aSuccessfulTurnCommitsExactlyItsChangeSetAndTheNextTurnWorksOnIt() throws Exception {
        String thread = withWorkspace("ws-commit-");
        JsonObject first = turn(thread, "tool write_file {\"path\":\"notes/a.txt\",\"content\":\"alpha\\n\"};"
                + " tool write_file {\"path\":\"b.txt\",\"content\":\"bee\\n\"};"
                + " tool apply_diff {\"diff\":\"--- a/notes/a.txt\\n+++ b/notes/a.txt\\n@@ -1 +1,2 @@\\n alpha\\n+beta\\n\"};"
                + " tool run {\"command\":[\"ls\",\"notes\"]}");
        assertEquals("succeeded", first.getString("status"), first.toString());
        String text = first.getJsonObject("output").getString("text");
        assertTrue(text.contains("apply_diff: applied; changed notes/a.txt"), text);
        assertTrue(text.contains("run: a.txt"), text);
        JsonObject change = first.getJsonObject("output").getJsonObject("workspace");
        String commit = change.getString("commit");
        assertEquals("", change.getString("base"), "the first turn starts from the empty start");
        assertEquals(List.of("b.txt A", "notes/a.txt A"), files(change));

        JsonObject record = record(first.getString("run_id"));
        assertEquals("completed", record.getString("status"));
        assertEquals(commit, record.getString("commit"));
        assertEquals(thread, record.getString("session_id"));
        assertEquals(first.getString("run_id"), record.getString("response_id"));
        assertTrue(record.isNull("previous_response_id"));
        String diff = record.getString("changes_diff");
        assertTrue(diff.contains("+alpha") && diff.contains("+beta") && diff.contains("+bee"), diff);
        JsonObject onDisk = parse(Files.readString(turnDir(first.getString("run_id")).resolve("turn.json")));
        assertEquals(commit, onDisk.getString("commit"));
        assertTrue(Files.readString(turnDir(first.getString("run_id")).resolve("changes.diff")).contains("+beta"));
        assertEquals(commit, workspace(thread).getString("head"));

        JsonObject second = turn(thread, "tool read_file {\"path\":\"notes/a.txt\"}; tool write_file"
                + " {\"path\":\"b.txt\",\"content\":\"bee\\n\"}");
        assertEquals("read_file: alpha\nbeta\n\nwrite_file: wrote 4 bytes to b.txt", second.getJsonObject("output")
                .getString("text"));
        JsonObject same = second.getJsonObject("output").getJsonObject("workspace");
        assertEquals(commit, same.getString("base"));
        assertTrue(same.isNull("commit"), "rewriting a file as it was changes nothing: no commit");
        assertEquals(commit, workspace(thread).getString("head"));
        assertEquals(first.getString("run_id"), record(second.getString("run_id")).getString("previous_response_id"),
                "the previous response is the turn that made the head's commit");
        assertNoWorktrees();
    }

    @Test
    void aRunQueuedBehindACommittingTurnStartsFromItsCommit() throws Exception {
        String thread = withWorkspace("ws-chain-");
        Path gate = gates.resolve(UUID.randomUUID().toString());
        String first = instance.api.message(thread, "tool write_file {\"path\":\"one.txt\",\"content\":\"1\"};"
                + " await " + gate).getString("run_id");
        Await.until(MINUTE, () -> instance.api.isExecuting(first, 1), "the first turn executes");
        String second = instance.api.message(thread, "tool list_files {}; tool write_file"
                + " {\"path\":\"two.txt\",\"content\":\"2\"}").getString("run_id");
        Files.createFile(gate); // the second run is claimed in the transaction that records the first
        JsonObject one = instance.api.awaitRun(first, 60);
        JsonObject two = instance.api.awaitRun(second, 60);
        assertEquals("succeeded", two.getString("status"), two.toString());
        assertEquals("list_files: one.txt\nwrite_file: wrote 1 bytes to two.txt",
                two.getJsonObject("output").getString("text"), "the chained run saw the first one's file");
        assertEquals(one.getJsonObject("output").getJsonObject("workspace").getString("commit"),
                two.getJsonObject("output").getJsonObject("workspace").getString("base"));
        assertEquals(two.getJsonObject("output").getJsonObject("workspace").getString("commit"),
                workspace(thread).getString("head"));
    }

    @Test
    void aFailingAndAnInterruptedTurnLeaveTheLineUntouchedAndNoWorktreeBehind() throws Exception {
        String thread = withWorkspace("ws-fail-");
        String head = turn(thread, "tool write_file {\"path\":\"a.txt\",\"content\":\"one\"}").getJsonObject("output")
                .getJsonObject("workspace").getString("commit");

        JsonObject failed = turn(thread, "tool write_file {\"path\":\"a.txt\",\"content\":\"two\"}; fail boom");
        assertEquals("failed", failed.getString("status"));
        assertEquals(head, workspace(thread).getString("head"));
        JsonObject failedRecord = record(failed.getString("run_id"));
        assertEquals("failed", failedRecord.getString("status"));
        assertTrue(failedRecord.isNull("commit") && failedRecord.isNull("changes_diff"), failedRecord.toString());

        Path gate = gates.resolve(UUID.randomUUID().toString());
        String held = instance.api.message(thread, "tool write_file {\"path\":\"a.txt\",\"content\":\"three\"};"
                + " tool write_file {\"path\":\"c.txt\",\"content\":\"c\"}; await " + gate).getString("run_id");
        Await.until(MINUTE, () -> worktrees().stream().anyMatch(w -> Files.exists(w.resolve("c.txt"))),
                "the held turn has written its files");
        Api.Reply cancelled = instance.api.postJson("/v1/threads/" + thread + "/cancel", "{}");
        assertEquals(200, cancelled.status(), cancelled.body());
        JsonObject interrupted = instance.api.awaitRun(held, 60);
        assertEquals("failed", interrupted.getString("status"));
        Await.until(MINUTE, () -> worktrees().isEmpty(), "the cancelled turn's worktree is removed");
        Await.until(MINUTE, () -> Files.exists(turnDir(held).resolve("turn.json")), "the cancelled turn's record");
        assertEquals("cancelled", record(held).getString("status"));
        assertEquals(head, workspace(thread).getString("head"), "the line is where the last successful turn left it");

        JsonObject after = turn(thread, "tool list_files {}; tool read_file {\"path\":\"a.txt\"}");
        assertEquals("list_files: a.txt\nread_file: one", after.getJsonObject("output").getString("text"));
    }

    @Test
    void pathsLeadingOutAndCommandsOffTheListAreRefusedWithAClearError() throws Exception {
        String thread = withWorkspace("ws-refuse-");
        JsonObject refused = turn(thread, "tool run {\"command\":[\"ln\",\"-s\",\"/etc\",\"out\"]};"
                + " tool read_file {\"path\":\"out/hostname\"};"
                + " tool read_file {\"path\":\"../../../etc/hostname\"};"
                + " tool write_file {\"path\":\"/tmp/escape.txt\",\"content\":\"x\"};"
                + " tool write_file {\"path\":\".git/hooks/pre-commit\",\"content\":\"x\"};"
                + " tool run {\"command\":[\"curl\",\"http://example.com\"]};"
                + " tool run {\"command\":[\"/bin/ls\"]};"
                + " tool apply_diff {\"diff\":\"--- a/../x.txt\\n+++ b/../x.txt\\n@@ -0,0 +1 @@\\n+x\\n\"}");
        assertEquals("succeeded", refused.getString("status"), "a refused tool call is the model's to read");
        List<String> lines = refused.getJsonObject("output").getString("text").lines().toList();
        assertEquals("run: ", lines.get(0));
        assertEquals("read_file: error: out/hostname leads outside the workspace through the link out", lines.get(1));
        assertEquals("read_file: error: ../../../etc/hostname is outside the workspace", lines.get(2));
        assertTrue(lines.get(3).startsWith("write_file: error: absolute paths are not allowed: /tmp/escape.txt"),
                lines.get(3));
        assertEquals("write_file: error: .git/hooks/pre-commit is inside .git, which tools may not touch", lines.get(4));
        assertEquals("run: error: curl is not an allowed command (allowed: cat, ln, ls, mytool, timeout)", lines.get(5));
        assertEquals("run: error: give the program by name, not by path: /bin/ls", lines.get(6));
        assertEquals("apply_diff: error: ../x.txt is outside the workspace", lines.get(7));
        assertFalse(Files.exists(Path.of("/tmp/escape.txt")));
    }

    /**
     * Issue 36's escapes, as a model would try them through the tools: a hard link to a file
     * outside made with the allowed {@code ln}, then read and written through; a program the model
     * wrote, named like an allowed one that is not installed; an allowed launcher starting a program
     * that is not allowed; a link to outside, committed. Each is refused or contained, the outside
     * file is untouched and the commit holds only what stays inside.
     */
    @Test
    void theEscapesOfIssue36AreRefusedOrContained() throws Exception {
        String thread = withWorkspace("ws-escape-");
        Path outside = Files.writeString(gates.resolve("hard-target-" + UUID.randomUUID() + ".txt"), "SECRET\n");
        JsonObject run = turn(thread, "tool run {\"command\":[\"ln\",\"" + outside + "\",\"a-hard\"]};"
                + " tool read_file {\"path\":\"a-hard\"};"
                + " tool write_file {\"path\":\"a-hard\",\"content\":\"HARDLINK-WROTE\\n\"};"
                + " tool apply_diff {\"diff\":\"diff --git a/mytool b/mytool\\nnew file mode 100755\\n--- /dev/null\\n"
                + "+++ b/mytool\\n@@ -0,0 +1,2 @@\\n+#!/bin/sh\\n+echo PWNED-FROM-WORKTREE\\n\"};"
                + " tool run {\"command\":[\"mytool\"]};"
                + " tool run {\"command\":[\"timeout\",\"5\",\"rm\",\"-rf\",\".\"]};"
                + " tool run {\"command\":[\"ln\",\"-s\",\"/etc/passwd\",\"a-mylink\"]};"
                + " tool run {\"command\":[\"ls\"]}");
        assertEquals("succeeded", run.getString("status"), run.toString());
        List<String> lines = run.getJsonObject("output").getString("text").lines().toList();
        String text = String.join("\n", lines);
        assertTrue(lines.get(0).startsWith("run: ") && lines.get(0).contains("ln: failed to access")
                && text.contains("[exit code 1]"),
                "the outside file is not in the sandbox: " + text);
        assertTrue(text.contains("read_file: error: a-hard does not exist"), text);
        assertTrue(text.contains("write_file: wrote 15 bytes to a-hard"), text);
        assertTrue(text.contains("run: cannot start mytool: not installed here"), text);
        assertTrue(text.contains("run: error: rm is not an allowed command (allowed: cat, ln, ls, mytool, timeout), and"
                + " timeout would start it"), text);
        assertFalse(text.contains("PWNED"), text);
        assertEquals("SECRET\n", Files.readString(outside), "the file outside is untouched");
        assertEquals(List.of("a-hard A", "mytool A"), files(record(run.getString("run_id"))),
                "the link to /etc/passwd is not committed");
    }

    /**
     * The pruning pass (every 2 s here) garbage-collects a thread's repository and pins every commit
     * the database names — the head and each recorded turn's commit — so that it is never dropped:
     * the pins appear, the repository is packed, and the next turn still works from the head.
     */
    @Test
    void aPruningPassPinsEveryCommitTheDatabaseNamesAndPacksTheRepository() throws Exception {
        String thread = withWorkspace("ws-prune-");
        JsonObject first = turn(thread, "tool write_file {\"path\":\"a.txt\",\"content\":\"one\\n\"}");
        String one = first.getJsonObject("output").getJsonObject("workspace").getString("commit");
        JsonObject second = turn(thread, "tool write_file {\"path\":\"a.txt\",\"content\":\"two\\n\"}");
        String two = second.getJsonObject("output").getJsonObject("workspace").getString("commit");
        Path repo = turnDir(second.getString("run_id")).getParent().getParent().resolve("repo.git");
        // the pass pins, then collects: both are awaited, the pins being there before the pack is
        Await.until(MINUTE, () -> pinned(repo, one) && pinned(repo, two) && packed(repo),
                "both recorded commits pinned and the repository packed in " + repo);
        JsonObject third = turn(thread, "tool read_file {\"path\":\"a.txt\"}");
        assertEquals("read_file: two", third.getJsonObject("output").getString("text").strip(), third.toString());
    }

    /** Whether the repository holds a pack (a collection ran). */
    private static boolean packed(Path repo) {
        try (Stream<Path> packs = Files.list(repo.resolve("objects/pack"))) {
            return packs.anyMatch(p -> p.toString().endsWith(".pack"));
        } catch (IOException e) {
            return false; // not made yet: looked at again
        }
    }

    /** Whether {@code commit} is pinned as a named commit, as a loose ref or a packed one. */
    private static boolean pinned(Path repo, String commit) {
        try {
            Path loose = repo.resolve("refs/switchboard/named/" + commit);
            Path packed = repo.resolve("packed-refs");
            return Files.exists(loose) || Files.exists(packed)
                    && Files.readString(packed).contains("refs/switchboard/named/" + commit);
        } catch (IOException e) {
            return false; // being rewritten by the pass: looked at again
        }
    }

    @Test
    void twentyThreadsWorkInTheirOwnWorktreesAtOnceWithoutTouchingEachOthersFiles() throws Exception {
        Path gate = gates.resolve(UUID.randomUUID().toString());
        List<String> threads = new ArrayList<>();
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String thread = withWorkspace("ws-twenty-" + i + "-");
            threads.add(thread);
            runs.add(instance.api.message(thread, "tool write_file {\"path\":\"own-" + i + ".txt\",\"content\":\"" + i
                    + "\"}; await " + gate + "; tool list_files {}").getString("run_id"));
        }
        Await.until(MINUTE, () -> worktrees().stream().filter(w -> {
            try (Stream<Path> files = Files.list(w)) {
                return files.findAny().isPresent();
            } catch (IOException gone) {
                return false;
            }
        }).count() >= 20, "twenty turns hold a worktree with their file at once");
        Files.createFile(gate);
        for (int i = 0; i < 20; i++) {
            JsonObject done = instance.api.awaitRun(runs.get(i), 60);
            assertEquals("write_file: wrote " + Integer.toString(i).length() + " bytes to own-" + i + ".txt\nlist_files: own-"
                    + i + ".txt", done.getJsonObject("output").getString("text"), done.toString());
            assertEquals(List.of("own-" + i + ".txt A"), files(done.getJsonObject("output").getJsonObject("workspace")));
        }
        assertNoWorktrees();
    }

    @Test
    void undoInAConversationPutsTheFilesBackAsTheyWereBeforeTheUndoneTurn() throws Exception {
        String thread = chat("ws-undo-" + UUID.randomUUID(), "hello");
        turnReply(thread, thread, 1);
        assertEquals(200, instance.api.send(instance.api.request("/v1/threads/" + thread + "/workspace")
                .PUT(HttpRequest.BodyPublishers.noBody())).status());
        assertEquals("write_file: wrote 2 bytes to f.txt",
                turnReply(thread, chat(thread, "tool write_file {\"path\":\"f.txt\",\"content\":\"v1\"}"), 2));
        String v1 = workspace(thread).getString("head");
        turnReply(thread, chat(thread, "tool write_file {\"path\":\"f.txt\",\"content\":\"v2\"}"), 3);
        String v2 = workspace(thread).getString("head");
        assertTrue(!v1.equals(v2));

        assertTrue(command(thread, "/undo").startsWith("Undone to turn 3."));
        assertEquals(v1, workspace(thread).getString("head"), "undo moved the line back");
        assertEquals("Redone to turn 4.", command(thread, "/redo"));
        assertEquals(v2, workspace(thread).getString("head"), "redo moved it forward again");
        assertTrue(command(thread, "/undo").startsWith("Undone to turn 3."));
        String reply = turnReply(thread, chat(thread, "tool read_file {\"path\":\"f.txt\"}"), 4);
        assertEquals("read_file: v1", reply, "the files are as they were before the undone turn");

        assertEquals("Thread cleared.", command(thread, "/clear"));
        assertEquals(v1, workspace(thread).getString("head"), "clearing the conversation keeps the files");
        turnReply(thread, chat(thread, "tool write_file {\"path\":\"f.txt\",\"content\":\"v3\"}"), 5);
        assertTrue(!v1.equals(workspace(thread).getString("head")));
        assertTrue(command(thread, "/undo").startsWith("Undone to turn 1."));
        assertEquals(v1, workspace(thread).getString("head"), "undo after a clear goes back to before the undone turn");
    }

    // --- helpers ---

    private static String withWorkspace(String prefix) {
        return WorkspaceCalls.enable(instance.api, prefix);
    }

    private static JsonObject turn(String thread, String script) {
        return instance.api.awaitRun(instance.api.message(thread, script).getString("run_id"), 60);
    }

    private static JsonObject record(String runId) {
        Api.Reply r = instance.api.get("/v1/runs/" + runId + "/workspace");
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static JsonObject workspace(String thread) {
        Api.Reply r = instance.api.get("/v1/threads/" + thread + "/workspace");
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static List<String> files(JsonObject change) {
        return WorkspaceCalls.files(change);
    }

    /** Sends a chat message (no token: the single user); returns the chat thread's id (its thread key). */
    private static String chat(String threadId, String content) {
        return ChatCalls.threadOf(ChatCalls.send(instance, null, "web", threadId, content));
    }

    private static String command(String threadId, String content) {
        Api.Reply r = ChatCalls.send(instance, null, "web", threadId, content);
        assertEquals(200, r.status(), r.body());
        return r.json().getString("message");
    }

    /** The reply of the chat thread's {@code n}th turn, once it has ended. */
    private static String turnReply(String thread, String sameThread, int n) throws InterruptedException {
        assertEquals(thread, sameThread);
        return ChatCalls.lastResponse(instance, null, thread, n);
    }

    /** Every per-turn worktree that exists now, under every thread. */
    private static List<Path> worktrees() {
        return WorkspaceCalls.worktrees(ROOT);
    }

    private static void assertNoWorktrees() {
        assertEquals(List.of(), worktrees(), "no worktree is left once the turns ended");
    }

    private static Path turnDir(String runId) {
        try (Stream<Path> threads = Files.list(ROOT)) {
            Optional<Path> dir = threads.map(t -> t.resolve("turns").resolve(runId)).filter(Files::isDirectory).findFirst();
            assertNotNull(dir.orElse(null), "a record directory for " + runId);
            return dir.get();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
