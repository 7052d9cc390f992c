package dev.switchboard.core.engine;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Collections;
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
 * configured), and every other engine a thread may choose instead ({@link EngineFactory#selectable}),
 * once, at start-up. Every factory bean of the module is a candidate.
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
    private final Map<String, AgentEngine> selectable = new TreeMap<>();

    @PostConstruct
    void select() {
        List<EngineFactory> all = factories.stream().toList();
        EngineFactory factory = choose(engineName, all);
        timer = Executors.newSingleThreadScheduledExecutor(threadFactory);
        EngineServices services = new EngineServices(timer, instanceId.orElse("unnamed"));
        engine = factory.create(services);
        selectable.put(engine.name(), engine);
        for (EngineFactory other : all) {
            if (other != factory && other.selectable()) {
                selectable.put(other.name(), other.create(services));
            }
        }
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

    /** The instance's engine: what runs a thread that chose none. */
    public AgentEngine engine() {
        return engine;
    }

    /** The engines a thread may choose, by name (the instance's among them). */
    public Map<String, AgentEngine> selectable() {
        return Collections.unmodifiableMap(selectable);
    }

    /**
     * The engine named {@code name} — the instance's when null — or, when this instance has no such
     * engine, one whose every run fails saying so (a thread's choice outlived the configuration).
     */
    public AgentEngine engine(String name) {
        if (name == null) {
            return engine;
        }
        AgentEngine chosen = selectable.get(name);
        return chosen != null ? chosen : unavailable(name);
    }

    static AgentEngine unavailable(String name) {
        return new AgentEngine() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public java.util.concurrent.CompletionStage<jakarta.json.JsonObject> execute(EngineRequest request) {
                return java.util.concurrent.CompletableFuture.failedFuture(new EngineFailure("the thread's engine '" + name
                        + "' is not configured on this instance"));
            }
        };
    }
}
