/**
 * Retention (issue 38): what ages out of the database and the workspaces' directory, by kind and
 * age, in small batches off the hot path. {@link dev.switchboard.core.retention.RetentionPolicy}
 * decides what is old enough; {@link dev.switchboard.core.retention.RetentionLedger} lists what
 * goes with a run, each table's store deleting its rows; {@link dev.switchboard.core.retention.RetentionPruner} runs the passes.
 */
package dev.switchboard.core.retention;
