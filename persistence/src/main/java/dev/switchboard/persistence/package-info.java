/**
 * Storage of Switchboard's model: JPA entities per concept (threads, runs) and the schema,
 * which Flyway owns. This module knows nothing of EJB, JAX-RS or WebSocket code.
 */
package dev.switchboard.persistence;
