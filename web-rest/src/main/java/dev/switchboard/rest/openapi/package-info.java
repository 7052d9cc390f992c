/**
 * {@code /openapi}: the API's OpenAPI document as it is written (web-rest's
 * {@code META-INF/openapi.yaml}), in YAML or JSON, and {@code /openapi/ui/}, its browsing UI
 * (Swagger UI, from its WebJar) — served by the application, so every answer of these routes is
 * its own.
 */
package dev.switchboard.rest.openapi;
