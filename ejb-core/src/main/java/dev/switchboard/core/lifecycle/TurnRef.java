package dev.switchboard.core.lifecycle;

/** What a turn's notifications name of it. */
public record TurnRef(String turnId, String userKey, String threadKey, long startedAt) {
}
