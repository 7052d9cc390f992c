/** Authentication at the edge: bearer token to user, before any resource runs. */
package dev.switchboard.rest.auth;
