package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    /** The thread a command acts on, and whether it prints the server's answer as JSON. */
    static final class Target {

        @Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
        String threadKey;

        @Option(names = "--json", description = "print the answer as JSON")
        boolean json;

        String path(String what) {
            return ThreadRuntimeCommands.runtimePath(threadKey, what);
        }

        /** The answer as JSON, or the line jagc prints for it. */
        void print(CommandSpec spec, JsonObject answer, String line) {
            spec.commandLine().getOut().println(json ? answer.toString() : line);
        }
    }

    @Command(name = "cancel", description = "Stops the thread's queued and running runs (the conversation stays).")
    static final class Cancel implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        Target target;

        @Override
        public Integer call() {
            JsonObject answer = Switchboard.of(spec).api().post(target.path("cancel"), Json.createObjectBuilder().build());
            target.print(spec, answer, "thread:" + answer.getString("thread_key") + (answer.getBoolean("cancelled")
                    ? " run stopped (session preserved)" : " no active run to stop (session preserved)"));
            return 0;
        }
    }

    @Command(name = "new", description = "Starts the thread's next run in a fresh conversation (a running run is stopped; nothing stored is lost).")
    static final class New implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        Target target;

        @Override
        public Integer call() {
            JsonObject answer = Switchboard.of(spec).api().deleteJson(target.path("session"));
            target.print(spec, answer, "thread:" + answer.getString("thread_key") + " session reset");
            return 0;
        }
    }

    @Command(name = "share", description = {"Prints a new read-only link to the thread's transcript, served by the server.",
            "--revoke revokes every link of the thread instead."})
    static final class Share implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        Target target;

        @Option(names = "--revoke", description = "revoke the thread's links")
        boolean revoke;

        @Override
        public Integer call() {
            Api api = Switchboard.of(spec).api();
            if (revoke) {
                JsonObject answer = api.deleteJson(target.path("share"));
                target.print(spec, answer, "thread:" + answer.getString("thread_key") + " revoked:" + answer.getInt("revoked"));
                return 0;
            }
            JsonObject answer = api.post(target.path("share"), Json.createObjectBuilder().build());
            target.print(spec, answer, "thread:" + answer.getString("thread_key") + "\nshare:" + answer.getString("share_url")
                    + "\ngist:" + answer.getString("gist_url"));
            return 0;
        }
    }
}
