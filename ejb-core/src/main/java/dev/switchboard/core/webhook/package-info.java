/**
 * Outgoing webhooks to the Standard Webhooks specification: a user's endpoints
 * ({@link dev.switchboard.core.webhook.WebhookEndpoints}), the messages made for them from the
 * notification log — the outbox of every state change, so only what committed is ever sent
 * ({@link dev.switchboard.core.webhook.WebhookLedger#fanOut}) — and their signed, leased, retried delivery
 * on a bounded pool of its own ({@link dev.switchboard.core.webhook.WebhookDispatcher}). The rules
 * (which events a notification is, which addresses may be called, the back-off, the signature) are
 * plain classes.
 */
package dev.switchboard.core.webhook;
