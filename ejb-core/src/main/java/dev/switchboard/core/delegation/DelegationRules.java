package dev.switchboard.core.delegation;

import dev.switchboard.core.engine.Delegation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where an execution's calls go (§3): each call is checked against the caller's peers (§3.2), then
 * resolved to the agent of that name or every agent serving it as a capability (§3.4), then
 * bounded by the path length and the tree's hop count (§3.10). A call that passes makes one child
 * path per listener, each with a segment unique among the caller's live children (§3.3); one that
 * does not is answered at once with a SystemError for the caller — the same generic text for an
 * unknown and a forbidden target, so a refusal tells nothing of the topology.
 */
public final class DelegationRules {

    /** The text of every routing refusal (unknown and forbidden alike). */
    public static final String UNDELIVERABLE = "Message could not be delivered.";
    public static final String TOO_DEEP = "Delegation depth limit reached.";
    public static final String TOO_MANY_HOPS = "Delegation hop limit reached.";

    /**
     * @param maxDepth the longest path, in segments below the root
     * @param maxHops the most deliveries (calls and replies) in one tree
     */
    public record Limits(int maxDepth, int maxHops) {
    }

    /**
     * What became of one call for one listener: dispatched on a child path ({@code segment}), or
     * refused with a SystemError {@code code} and {@code message}.
     */
    public record Slot(int call, String to, String input, String listener, String segment, String code, String message) {

        public boolean dispatched() {
            return listener != null;
        }

        static Slot to(Delegation.Call call, String listener, String segment) {
            return new Slot(call.index(), call.to(), call.input(), listener, segment, null, null);
        }

        static Slot refused(Delegation.Call call, String code, String message) {
            return new Slot(call.index(), call.to(), call.input(), null, null, code, message);
        }
    }

    /** The slots of a set of calls, and the tree's hop count once they are dispatched. */
    public record Routing(List<Slot> slots, int hops) {
    }

    private final Agents agents;
    private final Limits limits;

    public DelegationRules(Agents agents, Limits limits) {
        this.agents = agents;
        this.limits = limits;
    }

    /**
     * Routes {@code calls} made by {@code caller} (an agent's name, or the entry handler's, which
     * may be no configured agent and then calls anyone) on the path {@code callerPath} (root first),
     * whose live children hold {@code liveChildren}, in a tree that has made {@code hops} deliveries.
     */
    public Routing route(String caller, List<String> callerPath, List<Delegation.Call> calls, int hops,
            Set<String> liveChildren) {
        Optional<Agent> callerAgent = agents.byName(caller);
        Set<String> taken = new HashSet<>(liveChildren);
        List<Slot> slots = new ArrayList<>();
        int used = hops;
        for (Delegation.Call call : calls.stream().sorted(Comparator.comparingInt(Delegation.Call::index)).toList()) {
            List<Agent> listeners = agents.listeners(call.to());
            boolean allowed = callerAgent.map(a -> a.mayCall(call.to())).orElse(true);
            if (listeners.isEmpty() || !allowed) {
                slots.add(Slot.refused(call, "routing", UNDELIVERABLE));
                continue;
            }
            if (callerPath.size() > limits.maxDepth()) { // the child would have callerPath.size() segments below the root
                slots.add(Slot.refused(call, "depth", TOO_DEEP));
                continue;
            }
            if (used + listeners.size() > limits.maxHops()) {
                slots.add(Slot.refused(call, "depth", TOO_MANY_HOPS));
                continue;
            }
            for (Agent listener : listeners) {
                String segment = PathNames.childSegment(listener.name(), taken);
                taken.add(segment);
                slots.add(Slot.to(call, listener.name(), segment));
                used++;
            }
        }
        return new Routing(List.copyOf(slots), used);
    }
}
