package dev.switchboard.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code switchboard} command: where the server is, who calls it, and the subcommands. Its
 * attributes are inherited so that every subcommand answers {@code --help}, which the refusal of a
 * command line points to ({@code (see: switchboard <command> --help)}).
 */
@Command(name = "switchboard", scope = ScopeType.INHERIT, mixinStandardHelpOptions = true, version = "switchboard 0.1.0",
        description = "Talks to a running Switchboard server over its HTTP API and WebSocket.",
        subcommands = {HealthCommand.class, MessageCommand.class, RunCommand.class, ThreadsCommand.class,
                TailCommand.class, RuntimeCommands.Status.class, RuntimeCommands.Pause.class, RuntimeCommands.Resume.class,
                EventsCommand.class, IngressCommand.class, WebhooksCommand.class, AuthCommand.class, ChatCommand.class,
                ThreadRuntimeCommands.Model.class, ThreadRuntimeCommands.Thinking.class, ThreadSessionCommands.Cancel.class,
                ThreadSessionCommands.New.class, ThreadSessionCommands.Share.class},
        footer = {"", "Environment: SWITCHBOARD_URL (or jagc's JAGC_API_URL), SWITCHBOARD_TOKEN.",
                "Errors print the server's message on stderr; the exit status is then 1."})
public final class Switchboard {

    static final String DEFAULT_URL = "http://localhost:9080";

    @Option(names = {"--url", "--api-url"}, scope = ScopeType.INHERIT, paramLabel = "<url>",
            description = "server URL (default: $SWITCHBOARD_URL, else $JAGC_API_URL, else " + DEFAULT_URL + ")")
    String url;

    @Option(names = "--token", scope = ScopeType.INHERIT, paramLabel = "<token>",
            description = "bearer token (default: $SWITCHBOARD_TOKEN)")
    String token;

    private final Map<String, String> env;
    private final boolean terminal;

    Switchboard(Map<String, String> env, boolean terminal) {
        this.env = env;
        this.terminal = terminal;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, out, err, System.getenv(), System.console() != null));
    }

    /** Runs one command line; the exit status: 0, or 1 for any error. */
    static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env, boolean terminal) {
        CommandLine line = new CommandLine(new Switchboard(env, terminal));
        line.setOut(out).setErr(err)
                .setParameterExceptionHandler((e, argv) -> {
                    e.getCommandLine().getErr().println("error: " + e.getMessage());
                    e.getCommandLine().getErr().println("(see: " + e.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
                    return 1;
                })
                .setExecutionExceptionHandler((e, commandLine, parsed) -> {
                    commandLine.getErr().println(e instanceof CliException ? e.getMessage() : "error: " + e);
                    return 1;
                });
        int status = line.execute(args);
        out.flush();
        err.flush();
        return status;
    }

    /** The server URL: the option, else the environment, else the default. */
    URI baseUri() {
        String chosen = firstSet(url, env.get("SWITCHBOARD_URL"), env.get("JAGC_API_URL"), DEFAULT_URL);
        try {
            URI uri = URI.create(chosen.endsWith("/") ? chosen.substring(0, chosen.length() - 1) : chosen);
            if (uri.getScheme() == null || !List.of("http", "https").contains(uri.getScheme().toLowerCase())
                    || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new CliException("invalid server URL: " + chosen + " (expected http://host:port)");
        }
    }

    /** An environment variable, or {@code null}. */
    String env(String name) {
        return env.get(name);
    }

    String bearer() {
        return firstSet(token, env.get("SWITCHBOARD_TOKEN"), null, null);
    }

    Api api() {
        return new Api(baseUri(), bearer());
    }

    Follower follow(List<String> threads, Long afterSeq, PrintWriter notices) {
        return new Follower(baseUri(), bearer(), threads, afterSeq, message -> notices.println("switchboard: " + message));
    }

    /** Whether the output is a person's terminal (a progress line) rather than a pipe (plain lines). */
    boolean terminal() {
        return terminal;
    }

    static Switchboard of(CommandLine.Model.CommandSpec spec) {
        return (Switchboard) spec.root().userObject();
    }

    private static String firstSet(String a, String b, String c, String fallback) {
        for (String value : new String[] {a, b, c}) {
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        return fallback;
    }
}
