/**
 * Idempotency shared by every door that creates runs: payload fingerprints, the conflict of a key
 * reused with another payload, and recognising the unique violation of a concurrent first use.
 */
package dev.switchboard.core.idempotency;
