package dev.switchboard.cli;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The ingress records ({@code GET /v1/events}, {@code /v1/decisions}, {@code /v1/actions}). */
@Command(name = "events", description = {"Lists ingress records, oldest first: events (default), or their decisions or actions.",
        "Lines: events '<received_at> <event_id> <source> <type> <status> <session_key> <run_id>',",
        "decisions '<created_at> <id> <event_id> <type> <reason>', actions '<started_at> <id> <event_id> <status> <message>'."})
final class EventsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true)
    Kind kind = new Kind();

    static final class Kind {
        @Option(names = "--decisions", description = "the decisions taken on events")
        boolean decisions;

        @Option(names = "--actions", description = "the hand-offs of events to runs and their outcomes")
        boolean actions;
    }

    @Option(names = "--event-id") String eventId;
    @Option(names = "--session-key") String sessionKey;
    @Option(names = "--run-id") String runId;
    @Option(names = "--turn-id") String turnId;
    @Option(names = "--dedupe-key") String dedupeKey;
    @Option(names = "--source", description = "events and actions") String source;
    @Option(names = "--status", description = "events and actions") String status;
    @Option(names = "--since", description = "RFC 3339 time or epoch milliseconds, inclusive") String since;
    @Option(names = "--until", description = "RFC 3339 time or epoch milliseconds, exclusive") String until;

    @Option(names = "--limit", defaultValue = "50", description = "records per page, 1-500 (default: ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--all", description = "every page, not only the first")
    boolean all;

    @Option(names = "--json", description = "one JSON record per line")
    boolean json;

    @Override
    public Integer call() {
        String record = kind.decisions ? "decisions" : kind.actions ? "actions" : "events";
        Map<String, String> query = new LinkedHashMap<>();
        query.put("event_id", eventId);
        query.put("session_key", sessionKey);
        query.put("run_id", runId);
        query.put("turn_id", turnId);
        query.put("dedupe_key", dedupeKey);
        query.put("source", source);
        query.put("status", status);
        query.put("since", since);
        query.put("until", until);
        query.put("limit", Integer.toString(limit));
        Api api = Switchboard.of(spec).api();
        PrintWriter out = spec.commandLine().getOut();
        String cursor = null;
        do {
            query.put("cursor", cursor);
            JsonObject page = api.get("/v1/" + record + Api.query(query));
            for (JsonValue value : page.getJsonArray("data")) {
                out.println(json ? value.toString() : line(record, value.asJsonObject()));
            }
            cursor = page.get("next_cursor") instanceof JsonString next ? next.getString() : null;
        } while (all && cursor != null);
        if (!all && cursor != null) {
            spec.commandLine().getErr().println("more: --all");
        }
        return 0;
    }

    private static String line(String record, JsonObject r) {
        return switch (record) {
            case "decisions" -> String.join("  ", Texts.string(r, "created_at"), Texts.string(r, "id"), Texts.string(r, "event_id"),
                    Texts.string(r, "type"), Texts.string(r, "reason")).stripTrailing();
            case "actions" -> String.join("  ", Texts.string(r, "started_at"), Texts.string(r, "id"), Texts.string(r, "event_id"),
                    Texts.string(r, "status"), Texts.oneLine(Texts.string(r, "message"))).stripTrailing();
            default -> String.join("  ", Texts.string(r, "received_at"), Texts.string(r, "id"), Texts.string(r, "source"),
                    Texts.string(r, "type"), Texts.string(r, "status"), Texts.string(r, "session_key"), Texts.string(r, "run_id")).stripTrailing();
        };
    }
}
