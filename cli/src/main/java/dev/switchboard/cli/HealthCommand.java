package dev.switchboard.cli;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** jagc's {@code health}: {@code GET /healthz}. */
@Command(name = "health", description = "Checks that the server answers (GET /healthz): prints ok.")
final class HealthCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "print the answer as JSON")
    boolean json;

    @Override
    public Integer call() {
        Api.Reply reply = Switchboard.of(spec).api().call("GET", "/healthz", null, Map.of(), Duration.ZERO);
        if (!reply.ok()) {
            throw new CliException("health check failed with status " + reply.status());
        }
        spec.commandLine().getOut().println(json ? reply.object().toString() : "ok");
        return 0;
    }
}
