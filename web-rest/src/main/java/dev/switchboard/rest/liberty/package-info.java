/**
 * Liberty's own metrics endpoint as the API's port serves it: {@code /metrics} (MicroProfile
 * Metrics). Liberty's endpoint listens only on a loopback port of its own
 * ({@code SWITCHBOARD_INTERNAL_PORT}, server.xml's {@code switchboard_internal} virtual host); the
 * resource checks the caller and the request, relays Liberty's answer ({@link LibertyEndpoints}),
 * and refuses in the API's envelope — no client reaches Liberty's page, errors or authentication.
 */
package dev.switchboard.rest.liberty;
