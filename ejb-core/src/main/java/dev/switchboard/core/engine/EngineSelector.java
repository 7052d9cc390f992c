package dev.switchboard.core.engine;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Makes this instance's engine with the {@link EngineFactory} that {@code switchboard.engine}
 * names ({@code echo} by default; {@code scripted} is the test engine, never active unless
 * configured). Every factory bean of the module is a candidate.
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
    @ConfigProperty(name = "switchboard.instance-id")
    Optional<String> instanceId;

    @Inject
    @Any
    Instance<EngineFactory> factories;

    private AgentEngine engine;

    @PostConstruct
    void select() {
        EngineFactory factory = choose(engineName, factories.stream().toList());
        timer = Executors.newSingleThreadScheduledExecutor(threadFactory);
        engine = factory.create(new EngineServices(timer, instanceId.orElse("unnamed")));
    }

    /**
     * The factory named {@code name} (surrounding blanks ignored).
     *
     * @throws IllegalStateException naming the known engines when none has that name, or when
     *         two factories claim one name
     */
    static EngineFactory choose(String name, List<EngineFactory> candidates) {
        Map<String, EngineFactory> byName = new TreeMap<>();
        for (EngineFactory candidate : candidates) {
            EngineFactory other = byName.put(candidate.name(), candidate);
            if (other != null) {
                throw new IllegalStateException("two engine factories are named '" + candidate.name() + "': "
                        + other.getClass().getName() + " and " + candidate.getClass().getName());
            }
        }
        EngineFactory chosen = byName.get(name.strip());
        if (chosen == null) {
            throw new IllegalStateException("switchboard.engine: unknown engine '" + name + "' (known: "
                    + String.join(", ", byName.keySet()) + ")");
        }
        return chosen;
    }

    @PreDestroy
    void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    public AgentEngine engine() {
        return engine;
    }
}
