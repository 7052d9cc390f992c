package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The caller's threads ({@code thread/list}, {@code thread/read}, {@code GET /v1/threads/items}). */
@Command(name = "threads", description = "Threads: list, read, history.")
final class ThreadsCommand {

    @Spec
    CommandSpec spec;

    @Command(name = "list", description = "Lists threads by key: '<thread>  <active turns> active  <created_at>  <kind>'. "
            + "People's and integrations' threads; --all adds the internal ones.")
    int list(@Option(names = "--after", paramLabel = "<thread>", description = "start after this thread key") String after,
             @Option(names = "--limit", defaultValue = "50", description = "at most this many, 1-200 (default: ${DEFAULT-VALUE})") int limit,
             @Option(names = "--all", description = "also internal threads (Open Responses chains, delegation paths)") boolean all,
             @Option(names = "--query", paramLabel = "<text>", description = "only keys containing this text, in any case") String query,
             @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        JsonObjectBuilder params = Json.createObjectBuilder().add("limit", limit);
        if (after != null) {
            params.add("after", after);
        }
        if (all) {
            params.add("include_internal", true);
        }
        if (query != null) {
            params.add("query", query);
        }
        JsonObject page = Switchboard.of(spec).api().rpc("thread/list", params.build());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(page);
            return 0;
        }
        for (JsonValue value : page.getJsonArray("threads")) {
            JsonObject thread = value.asJsonObject();
            out.println(thread.getString("thread_id") + "  " + Texts.string(thread, "active_turns") + " active  "
                    + Texts.string(thread, "created_at") + "  " + Texts.string(thread, "kind"));
        }
        if (page.get("next_after") instanceof JsonString next) {
            // A search's page may be cut short (even empty) before the end: the next one goes on from here.
            // Quoted for a POSIX shell, so that the line can be pasted back whatever the key or search holds.
            spec.commandLine().getErr().println("more: --after " + shellQuoted(next.getString()) + (all ? " --all" : "")
                    + (query != null ? " --query " + shellQuoted(query) : ""));
        }
        return 0;
    }

    @Command(name = "read", description = "Shows a thread's runs in lane order, each with its messages.")
    int read(@Parameters(paramLabel = "<thread>") String thread,
             @Option(names = "--after-seq", defaultValue = "0", description = "runs after this place in the lane") long afterSeq,
             @Option(names = "--limit", defaultValue = "50", description = "at most this many runs, 1-200 (default: ${DEFAULT-VALUE})") int limit,
             @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        JsonObject page = Switchboard.of(spec).api().rpc("thread/read", Json.createObjectBuilder().add("thread_id", thread)
                .add("after_seq", afterSeq).add("limit", limit).build());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(page);
            return 0;
        }
        for (JsonValue value : page.getJsonArray("runs")) {
            JsonObject run = value.asJsonObject();
            out.println("#" + Texts.string(run, "thread_seq") + " " + Texts.runLine(run) + "  (" + Texts.string(run, "turn_id") + ")");
            for (JsonValue item : page.getJsonArray("items")) {
                JsonObject i = item.asJsonObject();
                if (run.getString("run_id").equals(i.getString("run_id", ""))) {
                    out.println("   " + i.getString("role", "item") + ": " + Texts.oneLine(Texts.text(i.get("content"))));
                }
            }
        }
        if (page.get("next_after_seq") instanceof JsonNumber next) {
            spec.commandLine().getErr().println("more: --after-seq " + next);
        }
        return 0;
    }

    @Command(name = "history", description = "Shows a thread's conversation history, oldest first: '#<seq> <role>: <text>'.")
    int history(@Parameters(paramLabel = "<thread>") String thread,
                @Option(names = "--after-seq", defaultValue = "0", description = "items after this one") long afterSeq,
                @Option(names = "--limit", defaultValue = "50", description = "at most this many items, 1-200 (default: ${DEFAULT-VALUE})") int limit,
                @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        JsonObject page = Switchboard.of(spec).api().get("/v1/threads/items?thread_key=" + Api.escape(thread)
                + "&after_seq=" + afterSeq + "&limit=" + limit);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(page);
            return 0;
        }
        for (JsonValue value : page.getJsonArray("items")) {
            JsonObject entry = value.asJsonObject();
            JsonObject item = entry.getJsonObject("item");
            out.println("#" + Texts.string(entry, "seq") + " " + item.getString("role", item.getString("type", "item")) + ": "
                    + Texts.oneLine(Texts.text(item)));
        }
        if (page.get("next_after_seq") instanceof JsonNumber next) {
            spec.commandLine().getErr().println("more: --after-seq " + next);
        }
        return 0;
    }

    /** {@code text} as one word of a POSIX shell: single-quoted, its single quotes written {@code '\''}. */
    static String shellQuoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
