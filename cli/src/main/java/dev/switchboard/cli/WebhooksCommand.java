package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The caller's outgoing webhooks ({@code /v1/webhooks}): the endpoints the server signs and posts
 * its events to, what it queued for each ({@code messages}) and how every delivery went
 * ({@code attempts}). An endpoint's secret is in the answers of {@code add} and {@code rotate}
 * only; the server never shows it again, so those two commands say so where a person sees it.
 */
@Command(name = "webhooks", description = {"Outgoing webhooks: endpoints, their messages and delivery attempts.",
        "Endpoint lines: '<id>  <enabled|disabled>  <url>  events:<types|all>",
        "  thread:<id|all>  [description]  [(disabled: <reason>)]'."})
final class WebhooksCommand {

    /** The contract's bounds, checked before any request so a typo costs no round trip. */
    static final int MAX_LIMIT = 200;
    static final long MAX_GRACE_SECONDS = 604_800;

    /** Said on stderr next to a secret: stdout may be a file or a pipe, the person still reads it. */
    static final String SECRET_NOTE = "note: the secret is shown only now; store it to verify signatures"
            + " ('webhooks rotate <id>' makes a new one)";

    @Spec
    CommandSpec spec;

    @Command(name = "list", description = "Lists the caller's endpoints, one line each.")
    int list(@Option(names = "--json", description = "print the answer as JSON") boolean json) {
        JsonObject page = Switchboard.of(spec).api().get("/v1/webhooks");
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(page);
            return 0;
        }
        for (JsonValue value : page.getJsonArray("data")) {
            out.println(endpointLine(value.asJsonObject()));
        }
        return 0;
    }

    @Command(name = "add", description = {"Adds an endpoint; prints it with its secret, shown only this once.",
            "Event types (--event): turn.completed turn.failed turn.cancelled",
            "  run.succeeded run.failed run.cancelled approval.requested auth.required",
            "  delegation.completed ingress.event.received"})
    int add(@Parameters(paramLabel = "<endpoint-url>", description = "where to POST: https (http only to allowed networks)") String url,
            @Option(names = "--event", paramLabel = "<type>", split = ",", description = "an event type to send, repeatable or comma-separated (default: every type)") List<String> events,
            @Option(names = "--thread", paramLabel = "<id>", description = "only this thread's events (default: every thread)") String thread,
            @Option(names = "--description", paramLabel = "<text>", description = "what it is for, shown in lists") String description,
            @Option(names = "--disabled", description = "create it disabled: nothing is sent until 'webhooks enable'") boolean disabled,
            @Option(names = "--json", description = "print the answer as JSON (the secret included)") boolean json) {
        JsonObjectBuilder body = Json.createObjectBuilder().add("url", url);
        if (events != null && !events.isEmpty()) {
            JsonArrayBuilder types = Json.createArrayBuilder();
            events.forEach(types::add);
            body.add("event_types", types);
        }
        if (thread != null) {
            body.add("thread_id", thread);
        }
        if (description != null) {
            body.add("description", description);
        }
        if (disabled) {
            body.add("enabled", false);
        }
        printWithSecret(Switchboard.of(spec).api().post("/v1/webhooks", body.build()), json);
        return 0;
    }

    @Command(name = "show", description = "Shows an endpoint (GET /v1/webhooks/{id}); never its secret.")
    int show(@Parameters(paramLabel = "<id>") String id,
             @Option(names = "--json", description = "print the endpoint as JSON") boolean json) {
        JsonObject endpoint = Switchboard.of(spec).api().get(endpointPath(id));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(endpoint);
        } else {
            details(endpoint).forEach(out::println);
        }
        return 0;
    }

    @Command(name = "enable", description = "Enables an endpoint (also one the server disabled after failed deliveries).")
    int enable(@Parameters(paramLabel = "<id>") String id,
               @Option(names = "--json", description = "print the endpoint as JSON") boolean json) {
        return setEnabled(id, true, json);
    }

    @Command(name = "disable", description = "Disables an endpoint: events are no longer queued for it.")
    int disable(@Parameters(paramLabel = "<id>") String id,
                @Option(names = "--json", description = "print the endpoint as JSON") boolean json) {
        return setEnabled(id, false, json);
    }

    @Command(name = "remove", description = "Removes an endpoint (DELETE /v1/webhooks/{id}); prints 'removed <id>'.")
    int remove(@Parameters(paramLabel = "<id>") String id,
               @Option(names = "--json", description = "print {\"deleted\":true}, as webhook/delete answers") boolean json) {
        Switchboard.of(spec).api().delete(endpointPath(id));
        spec.commandLine().getOut().println(json ? Json.createObjectBuilder().add("deleted", true).build().toString() : "removed " + id);
        return 0;
    }

    @Command(name = "rotate", description = {"Gives an endpoint a new secret, shown only this once.",
            "The old one keeps signing alongside it for the grace period,",
            "so receivers can switch without failing deliveries."})
    int rotate(@Parameters(paramLabel = "<id>") String id,
               @Option(names = "--grace", paramLabel = "<seconds>", description = "how long the old secret still signs, 0-" + MAX_GRACE_SECONDS + " (server default: 86400)") Long grace,
               @Option(names = "--json", description = "print the answer as JSON (the secret included)") boolean json) {
        JsonObjectBuilder body = Json.createObjectBuilder();
        if (grace != null) {
            body.add("grace_seconds", inRange("--grace", "<seconds>", grace, 0, MAX_GRACE_SECONDS));
        }
        printWithSecret(Switchboard.of(spec).api().post(endpointPath(id) + "/rotate", body.build()), json);
        return 0;
    }

    @Command(name = "messages", description = {"Lists the messages queued for an endpoint and their state.",
            "Lines: '<msg_id>  <state>  <event_type>  attempts:<n>  <created_at>",
            "  [next:<at>|ended:<at>]  [thread:<id>]'."})
    int messages(@Parameters(paramLabel = "<id>") String id, @Mixin Page page,
                 @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        printPage(Switchboard.of(spec).api().get(endpointPath(id) + "/messages" + page.query(null)), json,
                WebhooksCommand::messageLine);
        return 0;
    }

    @Command(name = "attempts", description = {"Lists an endpoint's delivery attempts, each with its outcome.",
            "Lines: '<at>  <msg_id>  #<attempt>  <outcome>  <status|->  <latency>ms  <response>'."})
    int attempts(@Parameters(paramLabel = "<id>") String id,
                 @Option(names = "--message", paramLabel = "<msg_id>", description = "only this message's attempts") String message,
                 @Mixin Page page,
                 @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        printPage(Switchboard.of(spec).api().get(endpointPath(id) + "/attempts" + page.query(message)), json,
                WebhooksCommand::attemptLine);
        return 0;
    }

    @Command(name = "replay", description = {"Queues a message for delivery again; prints its line.",
            "It keeps its webhook-id, so a receiver that already has it can tell."})
    int replay(@Parameters(paramLabel = "<id>") String id,
               @Parameters(paramLabel = "<msg_id>") String message,
               @Option(names = "--json", description = "print the message as JSON") boolean json) {
        // The contract gives replay no body; none is sent, so no Content-Type claims one.
        JsonObject queued = Switchboard.of(spec).api()
                .call("POST", endpointPath(id) + "/messages/" + Api.escape(message) + "/replay", null, Map.of(), Duration.ZERO).object();
        spec.commandLine().getOut().println(json ? queued.toString() : messageLine(queued));
        return 0;
    }

    private int setEnabled(String id, boolean enabled, boolean json) {
        JsonObject endpoint = Switchboard.of(spec).api().patch(endpointPath(id), Json.createObjectBuilder().add("enabled", enabled).build());
        spec.commandLine().getOut().println(json ? endpoint.toString() : endpointLine(endpoint));
        return 0;
    }

    /** The answer of add or rotate: the endpoint, its secret once, and the note that it will not be shown again. */
    private void printWithSecret(JsonObject endpoint, boolean json) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(endpoint);
        } else {
            details(endpoint).forEach(out::println);
            out.println("  secret       " + Texts.string(endpoint, "secret"));
        }
        spec.commandLine().getErr().println(SECRET_NOTE);
    }

    private void printPage(JsonObject page, boolean json, Function<JsonObject, String> line) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(page);
        } else {
            for (JsonValue value : page.getJsonArray("data")) {
                out.println(line.apply(value.asJsonObject()));
            }
        }
        if (page.get("next_cursor") instanceof JsonString next) {
            spec.commandLine().getErr().println("more: --cursor " + next.getString());
        }
    }

    static String endpointPath(String id) {
        return "/v1/webhooks/" + Api.escape(id);
    }

    /** The options of a log read a page at a time. */
    static final class Page {
        @Option(names = "--limit", paramLabel = "<n>", defaultValue = "50", description = "at most this many, 1-200 (default: ${DEFAULT-VALUE})")
        long limit;

        @Option(names = "--cursor", paramLabel = "<cursor>", description = "the page after this one (printed as 'more: --cursor …')")
        String cursor;

        /** The page's query, of one message's entries when {@code messageId} is given. */
        String query(String messageId) {
            Map<String, String> parameters = new java.util.LinkedHashMap<>();
            parameters.put("limit", Long.toString(inRange("--limit", "<n>", limit, 1, MAX_LIMIT)));
            parameters.put("cursor", cursor);
            parameters.put("message_id", messageId);
            return Api.query(parameters);
        }
    }

    /** The command line's own check, worded as the jagc options' ({@link RunWaits#positive}). */
    static long inRange(String option, String label, long value, long least, long most) {
        if (value < least || value > most) {
            throw new CliException("error: option '" + option + " " + label + "' argument '" + value
                    + "' is invalid. must be " + least + " to " + most);
        }
        return value;
    }

    /** One endpoint as a line of {@code webhooks list}. */
    static String endpointLine(JsonObject endpoint) {
        boolean enabled = endpoint.getBoolean("enabled", true);
        StringBuilder line = new StringBuilder(Texts.string(endpoint, "id")).append("  ").append(enabled ? "enabled " : "disabled")
                .append("  ").append(Texts.string(endpoint, "url"))
                .append("  events:").append(eventTypes(endpoint, ","))
                .append("  thread:").append(thread(endpoint));
        if (endpoint.get("description") instanceof JsonString description && !description.getString().isBlank()) {
            line.append("  ").append(Texts.oneLine(description.getString()));
        }
        if (!enabled && endpoint.get("disabled_reason") instanceof JsonString reason) {
            line.append("  (disabled: ").append(Texts.oneLine(reason.getString())).append(')');
        }
        return line.toString();
    }

    /** An endpoint as {@code show} prints it: the line's facts, one per line, and its times. Never the secret. */
    static List<String> details(JsonObject endpoint) {
        boolean enabled = endpoint.getBoolean("enabled", true);
        List<String> lines = new ArrayList<>();
        lines.add(Texts.string(endpoint, "id") + "  " + (enabled ? "enabled" : "disabled"));
        lines.add("  url          " + Texts.string(endpoint, "url"));
        if (endpoint.get("description") instanceof JsonString description) {
            lines.add("  description  " + Texts.oneLine(description.getString()));
        }
        lines.add("  events       " + eventTypes(endpoint, ", "));
        lines.add("  thread       " + thread(endpoint));
        if (endpoint.get("disabled_reason") instanceof JsonString reason) {
            lines.add("  disabled     " + Texts.oneLine(reason.getString()));
        }
        lines.add("  times        created " + Texts.string(endpoint, "created_at") + "  updated " + Texts.string(endpoint, "updated_at"));
        if (endpoint.get("previous_secret_expires_at") instanceof JsonString until) {
            lines.add("  old secret   still signs until " + until.getString());
        }
        return lines;
    }

    /** One queued message as a line of {@code webhooks messages}. */
    static String messageLine(JsonObject message) {
        StringBuilder line = new StringBuilder(String.format("%s  %-9s  %s  attempts:%s  %s", Texts.string(message, "id"),
                Texts.string(message, "state"), Texts.string(message, "event_type"), Texts.string(message, "attempts"),
                Texts.string(message, "created_at")));
        if (message.get("next_attempt_at") instanceof JsonString next) {
            line.append("  next:").append(next.getString());
        }
        if (message.get("ended_at") instanceof JsonString ended) {
            line.append("  ended:").append(ended.getString());
        }
        if (message.get("thread_id") instanceof JsonString thread) {
            line.append("  thread:").append(thread.getString());
        }
        return line.toString();
    }

    /** One delivery attempt as a line of {@code webhooks attempts}; no status means no HTTP answer at all. */
    static String attemptLine(JsonObject attempt) {
        String status = attempt.containsKey("status") && !attempt.isNull("status") ? Texts.string(attempt, "status") : "-";
        return String.format("%s  %s  #%s  %-9s  %3s  %sms  %s", Texts.string(attempt, "at"), Texts.string(attempt, "message_id"),
                Texts.string(attempt, "attempt"), Texts.string(attempt, "outcome"), status, Texts.string(attempt, "latency_ms"),
                Texts.oneLine(Texts.string(attempt, "response"))).stripTrailing();
    }

    /**
     * The endpoint's event types as the server lists them (an endpoint created without a choice
     * lists every type); {@code all} if the list is missing or empty.
     */
    private static String eventTypes(JsonObject endpoint, String separator) {
        List<String> types = new ArrayList<>();
        if (endpoint.get("event_types") instanceof JsonArray array) {
            for (JsonValue type : array) {
                types.add(type instanceof JsonString s ? s.getString() : type.toString());
            }
        }
        return types.isEmpty() ? "all" : String.join(separator, types);
    }

    private static String thread(JsonObject endpoint) {
        return endpoint.get("thread_id") instanceof JsonString thread ? thread.getString() : "all";
    }
}
