package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** One run: read it, wait for it (jagc's {@code run wait}), cancel it. */
@Command(name = "run", description = "A run: get, wait, cancel.")
final class RunCommand {

    @Spec
    CommandSpec spec;

    @Command(name = "get", description = "Shows a run (GET /v1/runs/{id}).")
    int get(@Parameters(paramLabel = "<runId>") String runId,
            @Option(names = "--json", description = "print the run envelope") boolean json) {
        JsonObject run = Switchboard.of(spec).api().get("/v1/runs/" + Api.escape(runId));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(run);
            return 0;
        }
        out.println(Texts.runLine(run));
        out.println("  thread   " + Texts.string(run, "thread_key") + " #" + Texts.string(run, "thread_seq")
                + "  turn " + Texts.string(run, "turn_id") + "  source " + Texts.string(run, "source"));
        out.println("  state    " + Texts.string(run, "state") + "  attempt " + Texts.string(run, "attempt")
                + "  crashes " + Texts.string(run, "crashes"));
        out.println("  times    created " + Texts.string(run, "created_at") + "  started " + Texts.string(run, "started_at")
                + "  finished " + Texts.string(run, "finished_at"));
        if (run.get("output") instanceof JsonObject output) {
            out.println("  output   " + Texts.oneLine(Texts.text(output)));
        }
        return 0;
    }

    @Command(name = "wait", description = "Waits until a run is no longer running; prints '<run_id> <status> [error]' (jagc).")
    int await(@Parameters(paramLabel = "<runId>") String runId,
              @Option(names = "--timeout", paramLabel = "<seconds>", defaultValue = "60", description = "give up after (default: ${DEFAULT-VALUE})") String timeout,
              @Option(names = "--interval-ms", paramLabel = "<ms>", defaultValue = "500", description = "least time between polls (default: ${DEFAULT-VALUE})") String interval,
              @Option(names = "--json", description = "print the run envelope") boolean json) throws InterruptedException {
        double seconds = RunWaits.positive("--timeout", "<seconds>", timeout);
        double intervalMs = RunWaits.positive("--interval-ms", "<ms>", interval);
        JsonObject run = RunWaits.await(Switchboard.of(spec).api(), runId, Duration.ofMillis((long) (seconds * 1000)),
                Duration.ofMillis((long) intervalMs));
        spec.commandLine().getOut().println(json ? run.toString() : Texts.runLine(run));
        return 0;
    }

    @Command(name = "cancel", description = {"Stops a run: interrupts its turn (turn/interrupt) and waits until it ended.",
            "Interrupting the thread's running turn also skips the thread's turns that have not started."})
    int cancel(@Parameters(paramLabel = "<runId>") String runId,
               @Option(names = "--reason", defaultValue = "cancelled from the command line", description = "recorded with the interruption") String reason,
               @Option(names = "--json", description = "print the run envelope") boolean json) throws InterruptedException {
        Api api = Switchboard.of(spec).api();
        JsonObject run = api.get("/v1/runs/" + Api.escape(runId));
        if (!Texts.ended(run)) {
            api.rpc("turn/interrupt", Json.createObjectBuilder().add("turn_id", run.getString("turn_id")).add("reason", reason).build());
            run = RunWaits.await(api, runId, Duration.ofSeconds(30), Duration.ofMillis(100));
        }
        spec.commandLine().getOut().println(json ? run.toString() : Texts.runLine(run));
        return 0;
    }
}
