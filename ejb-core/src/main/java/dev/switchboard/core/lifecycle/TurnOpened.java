package dev.switchboard.core.lifecycle;

import jakarta.json.JsonArray;

/**
 * An RPC turn was opened by {@code turn/start} — fired synchronously inside the transaction that
 * stores it, so ingress journals it as an event (H11) in the same commit.
 *
 * @param input the turn's input messages as stored
 * @param at    when it was opened, epoch ms
 */
public record TurnOpened(String userKey, String threadKey, String turnId, String runId, JsonArray input, long at) {
}
