/**
 * Switchboard's core: the rules of the domain as plain Java classes, and thin EJB services that
 * orchestrate them around transactions, executors and the database.
 */
package dev.switchboard.core;
