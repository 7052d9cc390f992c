/**
 * Users: every thread and run belongs to one. The caller's user comes from its credentials; API
 * tokens map to users through configuration.
 */
package dev.switchboard.core.user;
