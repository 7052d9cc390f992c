/** {@code /v1/webhooks}: a user's outgoing webhook endpoints, their messages and delivery log (docs/api.md, "Webhooks"). */
package dev.switchboard.rest.webhooks;
