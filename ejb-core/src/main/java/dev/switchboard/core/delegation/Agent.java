package dev.switchboard.core.delegation;

import java.util.List;
import java.util.Optional;

/**
 * A named agent others may call.
 *
 * @param engine the engine its paths execute on (null: the instance's default)
 * @param instructions what it is told it is (engines that call a model give it as instructions)
 * @param peers the names it may call: {@code null} any listener, empty none (X7), else exactly those
 * @param capabilities the capability names it serves: a call to one reaches every agent serving it
 * @param timeoutMs how long its caller waits for its reply (0: the configured default)
 */
public record Agent(String name, String engine, String instructions, List<String> peers, List<String> capabilities,
        long timeoutMs) {

    public Agent {
        peers = peers == null ? null : List.copyOf(peers);
        capabilities = List.copyOf(capabilities);
    }

    /** The names this agent may call; empty when it may call any. */
    public Optional<List<String>> peerList() {
        return Optional.ofNullable(peers);
    }

    /** True when this agent may call {@code target} (a listener or capability name, case-sensitive). */
    public boolean mayCall(String target) {
        return peers == null || peers.contains(target);
    }
}
