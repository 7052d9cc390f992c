/**
 * The serve runtime: per-user pause state and current session (Holon's runtime state), the
 * {@code server/*} calls, and this instance's log journal for {@code server/logStream}.
 */
package dev.switchboard.core.runtime;
