/**
 * Time as the instance sees it: the wall clock (with a test-only offset) and the monotonic clock
 * that local deadlines use, and a guard that keeps periodic tasks alive whatever they throw.
 */
package dev.switchboard.core.clock;
