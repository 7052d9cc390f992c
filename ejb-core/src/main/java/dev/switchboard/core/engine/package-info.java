/**
 * Agent engines: the one interface between a run and whatever does the thinking. The
 * {@code echo} engine is deterministic (demos, benchmarks); {@code scripted} is driven by its
 * input (tests of failures and delays). Each is registered by an {@link EngineFactory} bean, which
 * {@link EngineSelector} chooses by the configured name (docs/engines.md).
 */
package dev.switchboard.core.engine;
