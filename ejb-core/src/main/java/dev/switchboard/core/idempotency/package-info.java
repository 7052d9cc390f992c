/**
 * Idempotency shared by every door that creates runs: the rule itself
 * ({@link dev.switchboard.core.idempotency.IdempotencyKeys}: a key's earlier run, or the conflict of
 * a key reused with another payload), payload fingerprints, and recognising the unique violation
 * of a concurrent first use.
 */
package dev.switchboard.core.idempotency;
