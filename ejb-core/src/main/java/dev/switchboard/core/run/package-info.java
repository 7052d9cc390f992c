/**
 * Runs: ingest of a message as a durable, queued run (idempotent by source and key), reading
 * runs back, and waiting for one to finish. {@link dev.switchboard.core.run.RunService} is the
 * service the web modules call.
 */
package dev.switchboard.core.run;
