/**
 * Users' credentials — the tokens a tool needs to act for a user (spec §9's auth mode) — kept
 * sealed: {@link dev.switchboard.core.credential.CredentialSeal} encrypts each secret (AES-GCM,
 * bound to its user and name) with a key that is not in the database, and
 * {@link dev.switchboard.core.credential.Credentials} stores and opens them. A secret is never
 * written in clear: not to a row, a log line, a notification or a model's input.
 */
package dev.switchboard.core.credential;
