/**
 * Plain JDBC where JPA would cost too much: the multi-row inserts of the hottest writes (the
 * notification outbox and log) and of the log journal.
 */
package dev.switchboard.core.sql;
