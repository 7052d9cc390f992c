/** The one error envelope, {@code {"error":{"code","message"}}}, for application and framework errors. */
package dev.switchboard.rest.errors;
