/**
 * Liberty's own endpoints as the API's port serves them: {@code /metrics} (MicroProfile Metrics) and
 * {@code /openapi}, {@code /openapi/ui/} (MicroProfile OpenAPI). Liberty's web modules listen only on a
 * loopback port of their own ({@code SWITCHBOARD_INTERNAL_PORT}, server.xml's {@code default_host});
 * these resources check the caller and the request, relay Liberty's answer ({@link LibertyEndpoints}),
 * and refuse in the API's envelope — no client reaches Liberty's pages, errors or authentication.
 */
package dev.switchboard.rest.liberty;
