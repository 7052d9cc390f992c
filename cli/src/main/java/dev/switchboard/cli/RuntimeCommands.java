package dev.switchboard.cli;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The caller's runtime: its state, and pausing or resuming its event processing. */
final class RuntimeCommands {

    private RuntimeCommands() {
    }

    @Command(name = "status", description = "Shows the runtime's state (server/status) and the server's readiness.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--json", description = "print server/status's answer as JSON")
        boolean json;

        @Override
        public Integer call() {
            Api api = Switchboard.of(spec).api();
            JsonObject status = api.rpc("server/status", JsonValue.EMPTY_JSON_OBJECT);
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(status);
                return 0;
            }
            boolean paused = "paused".equals(Texts.string(status, "state"));
            out.println("state      " + Texts.string(status, "state") + (paused && status.get("paused_at") instanceof JsonString at
                    ? " since " + at.getString() : ""));
            if (!paused && status.get("resumed_at") instanceof JsonString at) {
                out.println("resumed    " + at.getString());
            }
            out.println("events     " + Texts.string(status, "events_processed") + " processed, last "
                    + (status.get("last_event_at") instanceof JsonString at ? at.getString() : "never"));
            out.println("session    " + Texts.string(status, "session_id"));
            Api.Reply ready = api.call("GET", "/health/ready", null, Map.of(), Duration.ZERO);
            out.println("readiness  " + (ready.ok() ? "UP" : "DOWN (" + ready.status() + ")") + " " + Texts.oneLine(ready.body()));
            return 0;
        }
    }

    @Command(name = "pause", description = "Pauses event processing (server/pause): events are held, not dropped.")
    static final class Pause implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            return say(spec, "server/pause");
        }
    }

    @Command(name = "resume", description = "Resumes event processing (server/resume); held events are released in order.")
    static final class Resume implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            return say(spec, "server/resume");
        }
    }

    /** Calls a method without params and prints the server's {@code message}. */
    private static int say(CommandSpec spec, String method) {
        JsonObject answer = Switchboard.of(spec).api().rpc(method, JsonValue.EMPTY_JSON_OBJECT);
        spec.commandLine().getOut().println(answer.getString("message", "done"));
        return 0;
    }
}
