/** Schema migrations: versioned SQL under {@code db/migration}, applied by Flyway. */
package dev.switchboard.persistence.schema;
