/**
 * Time as the instance sees it: the wall clock (with a test-only offset) and the monotonic clock
 * that local deadlines use, a guard that keeps periodic tasks alive whatever they throw, and the
 * wake-up that lets a polling loop run as soon as there is work (once the work has committed).
 */
package dev.switchboard.core.clock;
