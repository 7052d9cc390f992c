/**
 * The serve runtime: per-user pause state and current session (Holon's runtime state), the
 * {@code server/*} calls, and the log journal behind {@code server/logStream}, a table every instance
 * writes to.
 */
package dev.switchboard.core.runtime;
