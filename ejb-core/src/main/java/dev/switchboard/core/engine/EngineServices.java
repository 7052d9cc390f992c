package dev.switchboard.core.engine;

import java.util.concurrent.ScheduledExecutorService;

/**
 * What the server lends every engine: a timer thread of the engines' own (delays and timeouts
 * without a sleeping thread per call, not stretched by request load) and this instance's name.
 */
public record EngineServices(ScheduledExecutorService timer, String instanceId) {
}
