package dev.switchboard.core.delegation;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The configured agents, by name: who a call reaches. A target names one agent, or a capability
 * that every agent serving it answers (a broadcast, in name order). Read from a JSON array
 * ({@code SWITCHBOARD_AGENTS}) of {@code {name, engine?, instructions?, peers?, capabilities?,
 * timeout_ms?}}; names and capabilities are {@code [A-Za-z0-9_-]{1,64}} — never dotted (X2) — and a
 * capability may not share an agent's name.
 */
public final class Agents {

    private static final Set<String> KEYS = Set.of("name", "engine", "instructions", "peers", "capabilities",
            "timeout_ms");

    private final Map<String, Agent> byName;

    public Agents(List<Agent> agents) {
        Map<String, Agent> map = new LinkedHashMap<>();
        for (Agent a : agents) {
            if (!PathNames.isValidName(a.name())) {
                throw new IllegalArgumentException("agent name '" + a.name() + "' is not [A-Za-z0-9_-]{1,64}"
                        + " (dots and '#' are reserved for paths)");
            }
            if (map.putIfAbsent(a.name(), a) != null) {
                throw new IllegalArgumentException("agent '" + a.name() + "' is configured twice");
            }
        }
        for (Agent a : agents) {
            for (String c : a.capabilities()) {
                if (!PathNames.isValidName(c)) {
                    throw new IllegalArgumentException("capability '" + c + "' of agent '" + a.name()
                            + "' is not [A-Za-z0-9_-]{1,64}");
                }
                if (map.containsKey(c)) {
                    throw new IllegalArgumentException("capability '" + c + "' of agent '" + a.name()
                            + "' is also an agent's name");
                }
            }
        }
        this.byName = Map.copyOf(map);
    }

    /** No agents: every call is undeliverable. */
    public static Agents none() {
        return new Agents(List.of());
    }

    /** The agents a JSON array describes; {@link IllegalArgumentException} says what is wrong with it. */
    public static Agents parse(String json) {
        if (json == null || json.isBlank()) {
            return none();
        }
        JsonArray array;
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            array = reader.readArray();
        } catch (JsonException | IllegalStateException e) {
            throw new IllegalArgumentException("agents must be a JSON array of objects: " + e.getMessage());
        }
        List<Agent> agents = new ArrayList<>();
        for (JsonValue v : array) {
            if (!(v instanceof JsonObject o)) {
                throw new IllegalArgumentException("agents must be a JSON array of objects");
            }
            for (String key : o.keySet()) {
                if (!KEYS.contains(key)) {
                    throw new IllegalArgumentException("unknown agent field '" + key + "' (allowed: " + KEYS + ")");
                }
            }
            String name = string(o, "name", null);
            if (name == null) {
                throw new IllegalArgumentException("every agent needs a name");
            }
            long timeout = o.get("timeout_ms") instanceof JsonNumber n ? n.longValue() : 0;
            if (timeout < 0 || (o.containsKey("timeout_ms") && !(o.get("timeout_ms") instanceof JsonNumber))) {
                throw new IllegalArgumentException("timeout_ms of agent '" + name + "' must be a number >= 0");
            }
            agents.add(new Agent(name, string(o, "engine", null), string(o, "instructions", null),
                    o.containsKey("peers") ? names(o, "peers", name) : null,
                    o.containsKey("capabilities") ? names(o, "capabilities", name) : List.of(), timeout));
        }
        return new Agents(agents);
    }

    public Optional<Agent> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public List<Agent> all() {
        return byName.values().stream().sorted(Comparator.comparing(Agent::name)).toList();
    }

    /** The agents a call to {@code target} reaches: the one of that name, else every one serving it as a capability. */
    public List<Agent> listeners(String target) {
        Agent named = byName.get(target);
        if (named != null) {
            return List.of(named);
        }
        return all().stream().filter(a -> a.capabilities().contains(target)).toList();
    }

    /**
     * The names {@code agent} may call, in name order: its peers, or — when it has no list, or is
     * no configured agent (the entry handler) — every agent and capability.
     */
    public List<String> callableBy(String agent) {
        Agent configured = byName.get(agent);
        if (configured != null && configured.peers() != null) {
            return configured.peers().stream().sorted().toList();
        }
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        for (Agent a : byName.values()) {
            names.add(a.name());
            names.addAll(a.capabilities());
        }
        return List.copyOf(names);
    }

    private static String string(JsonObject o, String key, String otherwise) {
        JsonValue v = o.get(key);
        if (v == null || v == JsonValue.NULL) {
            return otherwise;
        }
        if (!(v instanceof JsonString s)) {
            throw new IllegalArgumentException("agent field '" + key + "' must be a string");
        }
        return s.getString();
    }

    private static List<String> names(JsonObject o, String key, String agent) {
        if (!(o.get(key) instanceof JsonArray list)) {
            throw new IllegalArgumentException(key + " of agent '" + agent + "' must be an array of names");
        }
        List<String> names = new ArrayList<>();
        for (JsonValue v : list) {
            if (!(v instanceof JsonString s)) {
                throw new IllegalArgumentException(key + " of agent '" + agent + "' must be an array of names");
            }
            names.add(s.getString());
        }
        return names;
    }
}
