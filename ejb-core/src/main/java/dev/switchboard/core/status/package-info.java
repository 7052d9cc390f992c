/** What health checks and operators ask of the server: is the database reachable, are lanes driven. */
package dev.switchboard.core.status;
