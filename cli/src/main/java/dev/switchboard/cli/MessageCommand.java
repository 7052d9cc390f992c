package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * jagc's {@code message}: posts one message ({@code POST /v1/messages}) and prints its run id; with
 * {@code --wait}, follows the run's turn live over {@code /ws} until it ends.
 */
@Command(name = "message", description = {"Sends a message to a thread; prints the run id (jagc).",
        "With --wait, shows the turn's progress live and ends with '<run_id> <status> [error]'."})
final class MessageCommand implements Callable<Integer> {

    private static final Set<String> TURN_ENDS = Set.of("turn/completed", "turn/interrupted");

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<text>", description = "the message")
    String text;

    @Option(names = "--source", defaultValue = "cli", description = "ingest origin (default: ${DEFAULT-VALUE})")
    String source;

    @Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
    String threadKey;

    @Option(names = "--user-key", description = "end-user label, stored with the run")
    String userKey;

    @Option(names = "--delivery-mode", defaultValue = "followUp", description = "followUp or steer (default: ${DEFAULT-VALUE})")
    String deliveryMode;

    @Option(names = "--idempotency-key", description = "resending with the same key returns the same run (sent in the body)")
    String idempotencyKey;

    @Option(names = "--json", description = "print the run envelope as one JSON line")
    boolean json;

    @Option(names = "--wait", description = "follow the turn until it ends")
    boolean await;

    @Option(names = "--timeout", paramLabel = "<seconds>", defaultValue = "60", description = "with --wait: give up after this long (default: ${DEFAULT-VALUE})")
    String timeout;

    @Override
    public Integer call() throws InterruptedException {
        Duration limit = Duration.ofMillis((long) (RunWaits.positive("--timeout", "<seconds>", timeout) * 1000));
        Switchboard app = Switchboard.of(spec);
        PrintWriter out = spec.commandLine().getOut();
        JsonObjectBuilder body = Json.createObjectBuilder().add("text", text).add("source", source)
                .add("thread_key", threadKey).add("delivery_mode", deliveryMode);
        if (userKey != null) {
            body.add("user_key", userKey);
        }
        if (idempotencyKey != null) {
            body.add("idempotency_key", idempotencyKey);
        }
        Api api = app.api();
        if (!await) {
            JsonObject run = api.post("/v1/messages", body.build());
            out.println(json ? run.toString() : run.getString("run_id"));
            return 0;
        }
        Instant deadline = Instant.now().plus(limit);
        // Subscribed before the post, so not one of the turn's notifications can be missed.
        try (Follower follower = app.follow(List.of(threadKey.strip()), null, spec.commandLine().getErr()).start();
             Progress progress = new Progress(out, app.terminal() && !json)) {
            JsonObject run = api.post("/v1/messages", body.build());
            String turnId = run.getString("turn_id", "");
            boolean ended = Texts.ended(run);
            while (!ended) {
                JsonObject notification = follower.next(deadline);
                if (notification == null) {
                    throw new CliException("timed out waiting for run " + run.getString("run_id"));
                }
                JsonObject params = notification.getJsonObject("params");
                if (params != null && turnId.equals(params.getString("turn_id", ""))) {
                    if (!json) {
                        progress.update(notification);
                    }
                    ended = TURN_ENDS.contains(notification.getString("method", ""));
                }
            }
            progress.close();
            JsonObject finished = RunWaits.await(api, run.getString("run_id"), Duration.ofSeconds(10), Duration.ofMillis(100));
            out.println(json ? finished.toString() : Texts.runLine(finished));
            return 0;
        }
    }
}
