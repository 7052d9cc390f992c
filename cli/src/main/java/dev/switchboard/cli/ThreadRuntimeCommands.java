package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * jagc's {@code model list|get|set} and {@code thinking get|set}: a thread's engine, model and
 * thinking level, with jagc's output lines ({@code thread:<key> model:<provider>/<model>},
 * {@code thread:<key> thinking:<level>}) and its refusals before any request.
 */
final class ThreadRuntimeCommands {

    static final List<String> LEVELS = List.of("off", "minimal", "low", "medium", "high", "xhigh");

    private ThreadRuntimeCommands() {
    }

    static String runtimePath(String threadKey, String what) {
        return "/v1/threads/" + Api.escape(threadKey) + "/" + what;
    }

    @Command(name = "model", description = "A thread's model (jagc).")
    static final class Model {

        @Spec
        CommandSpec spec;

        @Command(name = "list", description = "Lists the providers and their models: '* provider/model' when available.")
        int list(@Option(names = "--json", description = "print the catalogue as JSON") boolean json) {
            JsonObject catalogue = Switchboard.of(spec).api().get("/v1/models");
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(catalogue);
                return 0;
            }
            for (JsonValue value : catalogue.getJsonArray("providers")) {
                JsonObject p = value.asJsonObject();
                String auth = p.getBoolean("has_auth", false) && p.get("credential_type") instanceof JsonString type
                        ? type.getString() : p.getBoolean("has_auth", false) ? "null" : "missing";
                out.println(p.getString("provider") + " auth:" + auth + " models:" + Texts.string(p, "available_models")
                        + "/" + Texts.string(p, "total_models"));
                for (JsonValue m : p.getJsonArray("models")) {
                    JsonObject model = m.asJsonObject();
                    out.println("  " + (model.getBoolean("available", false) ? "*" : "-") + " " + model.getString("provider")
                            + "/" + model.getString("model_id") + (model.getBoolean("reasoning", false) ? " reasoning" : ""));
                }
            }
            return 0;
        }

        @Command(name = "get", description = "The thread's model: thread:<key> model:<provider>/<model>.")
        int get(@Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
                String threadKey, @Option(names = "--json", description = "print the runtime as JSON") boolean json) {
            return print(Switchboard.of(spec).api().get(runtimePath(threadKey, "runtime")), json);
        }

        @Command(name = "set", description = "Chooses the thread's model: <provider>/<model>.")
        int set(@Parameters(paramLabel = "<provider/model>") String choice,
                @Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
                String threadKey, @Option(names = "--json", description = "print the runtime as JSON") boolean json) {
            String trimmed = choice.strip();
            int slash = trimmed.indexOf('/');
            if (slash <= 0 || slash == trimmed.length() - 1) {
                throw new CliException("model must be in provider/model format");
            }
            JsonObject body = Json.createObjectBuilder().add("provider", trimmed.substring(0, slash))
                    .add("model_id", trimmed.substring(slash + 1)).build();
            return print(Switchboard.of(spec).api().put(runtimePath(threadKey, "model"), body), json);
        }

        private int print(JsonObject state, boolean json) {
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(state);
            } else if (state.get("model") instanceof JsonObject model) {
                out.println("thread:" + state.getString("thread_key") + " model:" + model.getString("provider") + "/"
                        + model.getString("model_id"));
            } else {
                out.println("thread:" + state.getString("thread_key") + " model:(none)");
            }
            return 0;
        }
    }

    @Command(name = "thinking", description = "A thread's thinking level (jagc).")
    static final class Thinking {

        @Spec
        CommandSpec spec;

        @Command(name = "get", description = "The thread's thinking level: thread:<key> thinking:<level>.")
        int get(@Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
                String threadKey, @Option(names = "--json", description = "print the thinking state as JSON") boolean json) {
            return print(Switchboard.of(spec).api().get(runtimePath(threadKey, "runtime")), json);
        }

        @Command(name = "set", description = "Chooses the thread's thinking level: off, minimal, low, medium, high, xhigh.")
        int set(@Parameters(paramLabel = "<level>") String level,
                @Option(names = "--thread-key", defaultValue = "cli:default", description = "thread (default: ${DEFAULT-VALUE})")
                String threadKey, @Option(names = "--json", description = "print the thinking state as JSON") boolean json) {
            if (!LEVELS.contains(level)) {
                throw new CliException("thinking level must be one of: " + String.join(", ", LEVELS));
            }
            return print(Switchboard.of(spec).api().put(runtimePath(threadKey, "thinking"),
                    Json.createObjectBuilder().add("thinking_level", level).build()), json);
        }

        private int print(JsonObject state, boolean json) {
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(Json.createObjectBuilder().add("thread_key", state.get("thread_key"))
                        .add("thinking_level", state.get("thinking_level")).add("supports_thinking", state.get("supports_thinking"))
                        .add("available_thinking_levels", state.get("available_thinking_levels")).build());
            } else {
                out.println("thread:" + state.getString("thread_key") + " thinking:" + state.getString("thinking_level"));
            }
            return 0;
        }
    }
}
