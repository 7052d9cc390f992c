package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The chat gateway from the terminal ({@code chat/*} over JSON-RPC): send a message, list the
 * caller's chat threads, see what they wait for, answer an approval, give or cancel a credential.
 */
@Command(name = "chat", description = "The chat gateway: send, threads, pending, approve, auth, auth-cancel.")
final class ChatCommand {

    @Spec
    CommandSpec spec;

    @Command(name = "send", description = "Sends a message (or a command such as /undo) to a chat thread.")
    int send(@Parameters(paramLabel = "<text>") String text,
             @Option(names = "--channel", defaultValue = "cli", description = "the channel it comes through (default: ${DEFAULT-VALUE})") String channel,
             @Option(names = "--thread", paramLabel = "<id>", description = "the channel's own thread id, or a chat thread's id") String thread,
             @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        JsonObjectBuilder params = Json.createObjectBuilder().add("content", text).add("channel", channel);
        if (thread != null) {
            params.add("thread_id", thread);
        }
        return reply(Switchboard.of(spec).api().rpc("chat/send", params.build()), json);
    }

    @Command(name = "threads", description = "Lists the caller's chat threads: '<id>  <state>  <channel>  <title>'.")
    int threads(@Option(names = "--json", description = "print the answer as JSON") boolean json) {
        JsonObject page = Switchboard.of(spec).api().rpc("chat/threads", Json.createObjectBuilder().add("limit", 500).build());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(page);
            return 0;
        }
        for (JsonValue value : page.getJsonArray("threads")) {
            JsonObject t = value.asJsonObject();
            out.println(t.getString("id") + "  " + t.getString("state") + "  " + t.getString("channel") + "  "
                    + Texts.oneLine(t.isNull("title") ? "" : t.getString("title")) + (t.getBoolean("active") ? "  (active)" : ""));
        }
        return 0;
    }

    @Command(name = "pending", description = "Lists what the caller's chat threads wait for: approvals and credentials.")
    int pending(@Option(names = "--json", description = "print one waiting thread per line as JSON") boolean json) {
        JsonObject page = Switchboard.of(spec).api().rpc("chat/threads", Json.createObjectBuilder().add("limit", 500).build());
        PrintWriter out = spec.commandLine().getOut();
        for (JsonValue value : page.getJsonArray("threads")) {
            JsonObject t = value.asJsonObject();
            if (t.isNull("pending_approval") && t.isNull("pending_auth")) {
                continue;
            }
            if (json) {
                out.println(t);
            } else if (!t.isNull("pending_approval")) {
                JsonObject a = t.getJsonObject("pending_approval");
                out.println(t.getString("id") + "  approval  " + a.getString("request_id") + "  "
                        + Texts.oneLine(a.getString("description")) + (a.getBoolean("allow_always") ? "" : "  (every time)"));
            } else {
                JsonObject a = t.getJsonObject("pending_auth");
                out.println(t.getString("id") + "  credential  " + a.getString("credential") + "  for "
                        + a.getString("tool_name") + "  until " + a.getString("expires_at"));
            }
        }
        return 0;
    }

    @Command(name = "approve", description = "Answers the approval a chat thread waits for (approve unless --always or --deny).")
    int approve(@Parameters(paramLabel = "<thread>") String thread,
                @Option(names = "--request-id", paramLabel = "<uuid>", description = "the request answered (default: whatever is pending)") String requestId,
                @Option(names = "--always", description = "approve this tool for the rest of the session") boolean always,
                @Option(names = "--deny", description = "reject the call") boolean deny,
                @Option(names = "--channel", defaultValue = "cli", description = "the channel answering (default: ${DEFAULT-VALUE})") String channel,
                @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        if (always && deny) {
            throw new CliException("--always and --deny exclude each other");
        }
        JsonObjectBuilder params = Json.createObjectBuilder().add("thread_id", thread)
                .add("action", deny ? "deny" : always ? "always" : "approve").add("channel", channel);
        if (requestId != null) {
            params.add("request_id", requestId);
        }
        return reply(Switchboard.of(spec).api().rpc("chat/approve", params.build()), json);
    }

    @Command(name = "auth", description = "Gives the credential a chat thread waits for; the token is read from standard input"
            + " (never from the command line, which others can see).")
    int auth(@Parameters(paramLabel = "<thread>") String thread,
             @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        String token;
        try {
            token = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (token == null || token.isBlank()) {
            throw new CliException("no token on standard input");
        }
        return reply(Switchboard.of(spec).api().rpc("chat/authToken", Json.createObjectBuilder().add("thread_id", thread)
                .add("token", token.strip()).build()), json);
    }

    @Command(name = "auth-cancel", description = "Ends a chat thread's wait for a credential.")
    int authCancel(@Parameters(paramLabel = "<thread>") String thread,
                   @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        return reply(Switchboard.of(spec).api().rpc("chat/authCancel", Json.createObjectBuilder().add("thread_id", thread)
                .build()), json);
    }

    /** A chat reply: {@code <status> <thread> [<turn>] [message]}. */
    private int reply(JsonObject reply, boolean json) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(reply);
            return 0;
        }
        StringBuilder line = new StringBuilder(reply.getString("status")).append(' ').append(reply.getString("thread_id"));
        if (!reply.isNull("turn_id")) {
            line.append(' ').append(reply.getString("turn_id"));
        }
        if (!reply.isNull("message")) {
            line.append("  ").append(Texts.oneLine(reply.getString("message")));
        }
        out.println(line);
        return 0;
    }
}
