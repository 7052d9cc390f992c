package dev.switchboard.core.engine;

import dev.switchboard.core.engine.tool.WorkspaceTools;
import dev.switchboard.core.workspace.CommandPolicy;
import dev.switchboard.core.workspace.Workspaces;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
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

    private Workspaces workspaces;
    private WorkspaceTools.Settings toolSettings;
    private boolean allThreads;

    @PostConstruct
    void read() {
        if (!threads.equals("chosen") && !threads.equals("all")) {
            throw new IllegalArgumentException("SWITCHBOARD_WORKSPACE_THREADS must be chosen or all, was '" + threads + "'");
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
                Duration.ofMillis(commandTimeoutMs), commandOutputBytes);
        workspaces = new Workspaces(Path.of(root), start);
        LOG.info(() -> "Workspaces under " + workspaces.root() + " for " + (allThreads ? "every thread" : "threads that"
                + " chose one") + start.map(s -> ", starting as clones of " + s).orElse("") + "; tools "
                + (enabled.isEmpty() ? "none" : String.join(", ", enabled)) + (enabled.contains("run")
                ? ", commands " + toolSettings.commands().allowed() : ""));
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
