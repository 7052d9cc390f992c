package dev.switchboard.core.engine;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Chooses the engine from configuration: {@code switchboard.engine} ({@code echo} by default,
 * or {@code scripted}, the test engine, which is never active unless configured); the echo delay
 * is {@code switchboard.engine.echo.delay-ms} (50 ms, as jagc).
 */
@ApplicationScoped
public class EngineSelector {

    /** The engines' timers get a thread of their own, so a delay is not stretched by server load. */
    @Resource
    ManagedThreadFactory threadFactory;

    private ScheduledExecutorService timer;

    @Inject
    @ConfigProperty(name = "switchboard.engine", defaultValue = "echo")
    String engineName;

    @Inject
    @ConfigProperty(name = "switchboard.engine.echo.delay-ms", defaultValue = "50")
    long echoDelayMs;

    /** Tests only: a file where the scripted engine records each call's start, progress and end. */
    @Inject
    @ConfigProperty(name = "switchboard.engine.scripted.journal")
    Optional<String> scriptedJournal;

    @Inject
    @ConfigProperty(name = "switchboard.instance-id")
    Optional<String> instanceId;

    private AgentEngine engine;

    @PostConstruct
    void select() {
        timer = Executors.newSingleThreadScheduledExecutor(threadFactory);
        engine = switch (engineName.strip()) {
            case "echo" -> new EchoEngine(echoDelayMs, timer);
            case "scripted" -> new ScriptedEngine(timer, scriptedJournal.map(String::strip).filter(p -> !p.isEmpty())
                    .map(p -> EngineJournal.to(Path.of(p), instanceId.orElse("unnamed"))).orElse(null));
            default -> throw new IllegalStateException("switchboard.engine: unknown engine '" + engineName
                    + "' (known: echo, scripted)");
        };
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }

    public AgentEngine engine() {
        return engine;
    }
}
