package dev.switchboard.core.delegation;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Delegation's settings, from MicroProfile Config ({@code SWITCHBOARD_AGENTS…}). */
@ApplicationScoped
public class DelegationSettings {

    private static final Logger LOG = Logger.getLogger(DelegationSettings.class.getName());

    @Inject
    @ConfigProperty(name = "switchboard.agents", defaultValue = " ")
    String agentsJson;

    @Inject
    @ConfigProperty(name = "switchboard.agents.entry", defaultValue = "main")
    String entry;

    @Inject
    @ConfigProperty(name = "switchboard.agents.max-depth", defaultValue = "16")
    int maxDepth;

    @Inject
    @ConfigProperty(name = "switchboard.agents.max-hops", defaultValue = "50")
    int maxHops;

    @Inject
    @ConfigProperty(name = "switchboard.agents.timeout-ms", defaultValue = "30000")
    long timeoutMs;

    @Inject
    @ConfigProperty(name = "switchboard.agents.max-concurrent", defaultValue = "20")
    int maxConcurrent;

    @Inject
    @ConfigProperty(name = "switchboard.agents.max-per-agent", defaultValue = "5")
    int maxPerAgent;

    @Inject
    @ConfigProperty(name = "switchboard.agents.sweep-ms", defaultValue = "1000")
    long sweepMs;

    private Agents agents;

    @PostConstruct
    void read() {
        if (!PathNames.isValidName(entry)) {
            throw new IllegalArgumentException("SWITCHBOARD_AGENTS_ENTRY '" + entry + "' is not [A-Za-z0-9_-]{1,64}");
        }
        if (maxDepth < 1 || maxHops < 1 || timeoutMs < 1 || maxConcurrent < 1 || maxPerAgent < 1 || sweepMs < 1) {
            throw new IllegalArgumentException("SWITCHBOARD_AGENTS_MAX_DEPTH, _MAX_HOPS, _TIMEOUT_MS, _MAX_CONCURRENT,"
                    + " _MAX_PER_AGENT and _SWEEP_MS must be at least 1");
        }
        agents = Agents.parse(agentsJson);
        if (!agents.all().isEmpty()) {
            LOG.info(() -> "Agents: " + agents.all().stream().map(Agent::name).toList() + "; entry handler '" + entry
                    + "', depth <= " + maxDepth + ", hops <= " + maxHops + ", reply timeout " + timeoutMs + " ms");
        }
    }

    public Agents agents() {
        return agents;
    }

    /** The name of the handler of an outer unit of work (its path's first segment below the root). */
    public String entry() {
        return entry;
    }

    public DelegationRules rules() {
        return new DelegationRules(agents, new DelegationRules.Limits(maxDepth, maxHops));
    }

    /** How long a caller waits for {@code agent}'s reply. */
    public long timeoutMs(String agent) {
        return agents.byName(agent).map(Agent::timeoutMs).filter(t -> t > 0).orElse(timeoutMs);
    }

    public int maxConcurrent() {
        return maxConcurrent;
    }

    public int maxPerAgent() {
        return maxPerAgent;
    }

    public long sweepMs() {
        return sweepMs;
    }
}
