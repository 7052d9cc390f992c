package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * jagc's {@code cancel}, {@code new} and {@code share}: stop a thread's run, start its next run in a
 * fresh conversation, hand out a read-only link to its transcript — with jagc's output lines and
 * {@code --json} printing the server's answer.
 */
final class ThreadSessionCommands {

    private ThreadSessionCommands() {
    }

    @Command(name = "cancel", description = "Stops the thread's queued and running runs (the conversation stays).")
    static final class Cancel implements java.util.concurrent.Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
        String threadKey;

        @Option(names = "--json", description = "print the answer as JSON")
        boolean json;

        @Override
        public Integer call() {
            JsonObject answer = Switchboard.of(spec).api().post(ThreadRuntimeCommands.runtimePath(threadKey, "cancel"),
                    Json.createObjectBuilder().build());
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(answer);
            } else {
                out.println("thread:" + answer.getString("thread_key") + (answer.getBoolean("cancelled")
                        ? " run stopped (session preserved)" : " no active run to stop (session preserved)"));
            }
            return 0;
        }
    }

    @Command(name = "new", description = "Starts the thread's next run in a fresh conversation (a running run is stopped; nothing stored is lost).")
    static final class New implements java.util.concurrent.Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
        String threadKey;

        @Option(names = "--json", description = "print the answer as JSON")
        boolean json;

        @Override
        public Integer call() {
            JsonObject answer = Switchboard.of(spec).api().deleteJson(ThreadRuntimeCommands.runtimePath(threadKey, "session"));
            PrintWriter out = spec.commandLine().getOut();
            out.println(json ? answer.toString() : "thread:" + answer.getString("thread_key") + " session reset");
            return 0;
        }
    }

    @Command(name = "share", description = {"Prints a new read-only link to the thread's transcript, served by the server.",
            "--revoke revokes every link of the thread instead."})
    static final class Share implements java.util.concurrent.Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
        String threadKey;

        @Option(names = "--revoke", description = "revoke the thread's links")
        boolean revoke;

        @Option(names = "--json", description = "print the answer as JSON")
        boolean json;

        @Override
        public Integer call() {
            Api api = Switchboard.of(spec).api();
            String path = ThreadRuntimeCommands.runtimePath(threadKey, "share");
            PrintWriter out = spec.commandLine().getOut();
            if (revoke) {
                JsonObject answer = api.deleteJson(path);
                out.println(json ? answer.toString()
                        : "thread:" + answer.getString("thread_key") + " revoked:" + answer.getInt("revoked"));
                return 0;
            }
            JsonObject answer = api.post(path, Json.createObjectBuilder().build());
            if (json) {
                out.println(answer);
            } else {
                out.println("thread:" + answer.getString("thread_key"));
                out.println("share:" + answer.getString("share_url"));
                out.println("gist:" + answer.getString("gist_url"));
            }
            return 0;
        }
    }
}
