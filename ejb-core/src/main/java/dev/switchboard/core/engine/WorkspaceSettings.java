package dev.switchboard.core.engine;

import dev.switchboard.core.engine.tool.WorkspaceTools;
import dev.switchboard.core.workspace.BubblewrapSandbox;
import dev.switchboard.core.workspace.CommandPolicy;
import dev.switchboard.core.workspace.CommandRun;
import dev.switchboard.core.workspace.Programs;
import dev.switchboard.core.workspace.Sandbox;
import dev.switchboard.core.workspace.UnconfinedSandbox;
import dev.switchboard.core.workspace.Workspaces;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Workspaces' settings, from MicroProfile Config ({@code SWITCHBOARD_WORKSPACE…}): where they live,
 * what a new one starts as, which threads have one, and the tools a turn is offered in it. A
 * mistaken setting stops the application at start with the reason.
 */
@ApplicationScoped
public class WorkspaceSettings {

    private static final Logger LOG = Logger.getLogger(WorkspaceSettings.class.getName());

    @Inject
    @ConfigProperty(name = "switchboard.workspace.root", defaultValue = "workspaces")
    String root;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.source", defaultValue = " ")
    String source;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.threads", defaultValue = "chosen")
    String threads;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.tools", defaultValue = " ")
    String tools;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.commands", defaultValue = " ")
    String commands;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.command-timeout-ms", defaultValue = "10000")
    long commandTimeoutMs;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.command-output-bytes", defaultValue = "65536")
    int commandOutputBytes;

    /** How long what nothing names stays in a workspace's repository before pruning may drop it. */
    @Inject
    @ConfigProperty(name = "switchboard.workspace.retention-hours", defaultValue = "24")
    long retentionHours;

    /** How often one instance prunes the workspaces. */
    @Inject
    @ConfigProperty(name = "switchboard.workspace.prune-every-ms", defaultValue = "3600000")
    long pruneEveryMs;

    /** {@code bubblewrap} (commands in a sandbox) or {@code none} (as the server's user: only for trusted programs). */
    @Inject
    @ConfigProperty(name = "switchboard.workspace.sandbox", defaultValue = "bubblewrap")
    String sandbox;

    /** The largest file a command may write (its writes past that fail). */
    @Inject
    @ConfigProperty(name = "switchboard.workspace.command-file-bytes", defaultValue = "67108864")
    long commandFileBytes;

    private Workspaces workspaces;
    private WorkspaceTools.Settings toolSettings;
    private boolean allThreads;

    @PostConstruct
    void read() {
        if (!threads.equals("chosen") && !threads.equals("all")) {
            throw new IllegalArgumentException("SWITCHBOARD_WORKSPACE_THREADS must be chosen or all, was '" + threads + "'");
        }
        if (retentionHours < 1 || pruneEveryMs < 1) {
            throw new IllegalArgumentException("SWITCHBOARD_WORKSPACE_RETENTION_HOURS and _PRUNE_EVERY_MS must be at least 1");
        }
        if (commandTimeoutMs < 1 || commandOutputBytes < 1) {
            throw new IllegalArgumentException("SWITCHBOARD_WORKSPACE_COMMAND_TIMEOUT_MS and _COMMAND_OUTPUT_BYTES must be"
                    + " at least 1");
        }
        allThreads = threads.equals("all");
        Optional<Path> start = source.isBlank() ? Optional.empty() : Optional.of(Path.of(source.strip()).toAbsolutePath());
        if (start.isPresent() && !Files.isDirectory(start.get())) {
            throw new IllegalArgumentException("SWITCHBOARD_WORKSPACE_SOURCE " + start.get() + " is not a directory");
        }
        Set<String> enabled = new LinkedHashSet<>();
        for (String name : Arrays.stream(tools.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList()) {
            if (name.equals("all")) {
                enabled.addAll(WorkspaceTools.ALL);
            } else {
                enabled.add(name);
            }
        }
        toolSettings = new WorkspaceTools.Settings(enabled, CommandPolicy.parse(commands),
                Duration.ofMillis(commandTimeoutMs), commandOutputBytes,
                enabled.contains("run") ? sandbox() : new UnconfinedSandbox()); // without run, no command ever starts
        workspaces = new Workspaces(Path.of(root), start);
        LOG.info(() -> "Workspaces under " + workspaces.root() + " for " + (allThreads ? "every thread" : "threads that"
                + " chose one") + start.map(s -> ", starting as clones of " + s).orElse("") + "; tools "
                + (enabled.isEmpty() ? "none" : String.join(", ", enabled)) + (enabled.contains("run")
                ? ", commands " + toolSettings.commands().allowed() + " in the " + toolSettings.sandbox().name()
                + " sandbox" : ""));
    }

    /**
     * The configured sandbox, tried once: a machine without bubblewrap, or whose kernel refuses it
     * the namespaces it needs, stops the start with the reason rather than run commands unconfined.
     */
    private Sandbox sandbox() {
        String name = sandbox.strip();
        if (name.equals("none")) {
            LOG.warning("SWITCHBOARD_WORKSPACE_SANDBOX=none: workspace commands run as the server's user, held by the"
                    + " allow-list alone");
            return new UnconfinedSandbox();
        }
        if (!name.equals("bubblewrap")) {
            throw new IllegalArgumentException("SWITCHBOARD_WORKSPACE_SANDBOX must be bubblewrap or none, was '" + name + "'");
        }
        if (commandFileBytes < 1) {
            throw new IllegalArgumentException("SWITCHBOARD_WORKSPACE_COMMAND_FILE_BYTES must be at least 1");
        }
        Path bwrap = Programs.resolve("bwrap").orElseThrow(() -> new IllegalStateException("the run tool needs"
                + " bubblewrap (Debian's package bubblewrap: apt-get install bubblewrap), or"
                + " SWITCHBOARD_WORKSPACE_SANDBOX=none to run commands unconfined"));
        BubblewrapSandbox sandboxed = new BubblewrapSandbox(bwrap, commandFileBytes);
        Path probe = null;
        try {
            probe = Files.createTempDirectory("switchboard-sandbox-probe");
            CommandRun.Result tried = CommandRun.run(List.of("true"), probe, sandboxed, Duration.ofSeconds(10), 4096);
            if (tried.exitCode() != 0) {
                throw new IllegalStateException("bubblewrap cannot make its sandbox on this machine (" + tried.asToolOutput()
                        .strip() + "); allow unprivileged user namespaces, or set SWITCHBOARD_WORKSPACE_SANDBOX=none");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot try the sandbox", e);
        } finally {
            if (probe != null) {
                try {
                    Files.deleteIfExists(probe);
                } catch (IOException ignored) {
                    // a temporary directory left empty
                }
            }
        }
        return sandboxed;
    }

    /** What nothing names is kept this long (longer than any turn takes: a turn's objects are unnamed until it is recorded). */
    public Duration retention() {
        return Duration.ofHours(retentionHours);
    }

    public long pruneEveryMs() {
        return pruneEveryMs;
    }

    public Workspaces workspaces() {
        return workspaces;
    }

    public WorkspaceTools.Settings tools() {
        return toolSettings;
    }

    /** Every thread has a workspace ({@code SWITCHBOARD_WORKSPACE_THREADS=all}), not only those that chose one. */
    public boolean allThreads() {
        return allThreads;
    }
}
