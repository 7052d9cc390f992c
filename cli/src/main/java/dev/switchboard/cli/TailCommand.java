package dev.switchboard.cli;

import jakarta.json.JsonObject;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Follows notifications over {@code /ws}: every thread of the caller or the ones named, live or
 * from a seq, surviving reconnects without a gap. Runs until stopped, or until one of the stop
 * conditions is met, so scripts can use it too.
 */
@Command(name = "tail", description = {"Follows notifications live over the WebSocket, resuming by seq after a lost connection.",
        "Lines: '<seq>  <method>  <thread>  <summary>'; --json prints each notification as received."})
final class TailCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--thread", paramLabel = "<thread>", description = "follow only this thread (repeatable)")
    List<String> threads = new ArrayList<>();

    @Option(names = "--after-seq", paramLabel = "<seq>", description = "first replay every notification after this seq (0: all kept)")
    Long afterSeq;

    @Option(names = "--count", paramLabel = "<n>", description = "stop after this many notifications")
    Integer count;

    @Option(names = "--until", paramLabel = "<method>", description = "stop after the first notification of this method, e.g. turn/completed")
    String until;

    @Option(names = "--for", paramLabel = "<seconds>", description = "stop after this long")
    String seconds;

    @Option(names = "--json", description = "one JSON notification per line")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        if (afterSeq != null && afterSeq < 0) {
            throw new CliException("error: option '--after-seq' must be 0 or more");
        }
        // Without --for: until stopped (a century is as good as forever and keeps the arithmetic in range).
        Duration span = seconds == null ? Duration.ofDays(36_500)
                : Duration.ofMillis((long) (RunWaits.positive("--for", "<seconds>", seconds) * 1000));
        Instant deadline = Instant.now().plus(span);
        PrintWriter out = spec.commandLine().getOut();
        int seen = 0;
        try (Follower follower = Switchboard.of(spec).follow(threads, afterSeq, spec.commandLine().getErr()).start()) {
            while (count == null || seen < count) {
                JsonObject notification = follower.next(deadline);
                if (notification == null) {
                    break;
                }
                seen++;
                out.println(json ? notification.toString() : Texts.notificationLine(notification));
                out.flush();
                if (until != null && until.equals(notification.getString("method", ""))) {
                    break;
                }
            }
        }
        return 0;
    }
}
