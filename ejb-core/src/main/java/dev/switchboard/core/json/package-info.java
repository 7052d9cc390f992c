/**
 * The one JSON-P provider of the application, looked up once.
 */
package dev.switchboard.core.json;
