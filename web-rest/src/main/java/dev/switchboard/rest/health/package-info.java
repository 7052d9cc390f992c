/**
 * MicroProfile Health checks and the endpoints that serve them, /health, /health/live,
 * /health/ready and /health/started, in MicroProfile Health's format.
 */
package dev.switchboard.rest.health;
