package dev.switchboard.core.lane;

/** One attempt of one run: what a lease, an execution and a fenced write are about. */
public record RunAttempt(String runId, int attempt) {
}
