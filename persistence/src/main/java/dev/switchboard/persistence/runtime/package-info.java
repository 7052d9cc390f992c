/** The per-user serve runtime record. */
package dev.switchboard.persistence.runtime;
