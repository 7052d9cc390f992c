/**
 * Open Responses over HTTP: {@code POST /v1/responses} (and {@code /responses}) answered whole or
 * as server-sent events written frame by frame, {@code GET /v1/responses/{id}} and
 * {@code POST /v1/responses/{id}/cancel}; errors in the specification's body.
 */
package dev.switchboard.rest.responses;
