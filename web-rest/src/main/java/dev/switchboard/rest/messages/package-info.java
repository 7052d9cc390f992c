/** {@code POST /v1/messages}: jagc's ingest, with its validation order and error codes. */
package dev.switchboard.rest.messages;
