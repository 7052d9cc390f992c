/** Start-up of the database: migrations run before any other bean touches it. */
package dev.switchboard.core.schema;
