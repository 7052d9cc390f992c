/**
 * Agent engines: the one interface between a run and whatever does the thinking. The
 * {@code echo} engine is deterministic (demos, benchmarks); {@code scripted} is driven by its
 * input (tests of failures and delays). Each is registered by an {@link EngineFactory} bean, which
 * {@link EngineSelector} chooses by the configured name (docs/engines.md). A run whose thread has
 * a workspace executes through {@link WorkspaceTurn}, which gives any engine a worktree and its
 * tools and turns what it changed into one commit ({@link WorkspaceSettings}; docs/workspaces.md).
 */
package dev.switchboard.core.engine;
