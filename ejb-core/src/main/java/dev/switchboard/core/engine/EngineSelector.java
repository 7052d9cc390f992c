package dev.switchboard.core.engine;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Chooses the engine from configuration: {@code switchboard.engine} ({@code echo} by default,
 * or {@code scripted}); the echo delay is {@code switchboard.engine.echo.delay-ms} (50 ms, as jagc).
 */
@ApplicationScoped
public class EngineSelector {

    @Resource
    ManagedScheduledExecutorService timer;

    @Inject
    @ConfigProperty(name = "switchboard.engine", defaultValue = "echo")
    String engineName;

    @Inject
    @ConfigProperty(name = "switchboard.engine.echo.delay-ms", defaultValue = "50")
    long echoDelayMs;

    private AgentEngine engine;

    @PostConstruct
    void select() {
        engine = switch (engineName.strip()) {
            case "echo" -> new EchoEngine(echoDelayMs, timer);
            case "scripted" -> new ScriptedEngine(timer);
            default -> throw new IllegalStateException("switchboard.engine: unknown engine '" + engineName
                    + "' (known: echo, scripted)");
        };
    }

    public AgentEngine engine() {
        return engine;
    }
}
