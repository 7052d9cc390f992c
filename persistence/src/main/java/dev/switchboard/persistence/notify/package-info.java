/** The notification outbox and its sequencer row. */
package dev.switchboard.persistence.notify;
