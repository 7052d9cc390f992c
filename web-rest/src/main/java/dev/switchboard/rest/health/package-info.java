/** MicroProfile Health checks, served by the runtime at /health, /health/live and /health/ready. */
package dev.switchboard.rest.health;
