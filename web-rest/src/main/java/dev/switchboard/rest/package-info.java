/**
 * The HTTP edge at the server root. Resources parse and validate, call ejb-core services and
 * render; every error leaves as {@code {"error":{"code","message"}}}.
 */
package dev.switchboard.rest;
