/**
 * Runs (one turn of a thread: input, output, status, attempt) and the idempotency records that
 * map a client's (source, key) to the run it created.
 */
package dev.switchboard.persistence.run;
