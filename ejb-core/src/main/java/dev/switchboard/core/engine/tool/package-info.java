/**
 * Function tools an engine's tool loop may call: each declares its name, description and JSON
 * schema for the model and runs on its own ({@link dev.switchboard.core.engine.tool.FunctionTool});
 * {@link dev.switchboard.core.engine.tool.ToolBox} holds the configured ones and turns any failure
 * into a tool result the model can read. Built in: {@code current_time}, {@code echo_tool} and
 * {@code http_get} (limited to an allow-list); and, for a turn in a workspace,
 * {@link dev.switchboard.core.engine.tool.WorkspaceTools} bound to its worktree.
 */
package dev.switchboard.core.engine.tool;
