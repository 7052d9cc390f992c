/**
 * Event ingress rules (holon-serve spec §8–§12), plain and unit-tested: GitHub normalisation
 * ({@link dev.switchboard.core.ingress.GithubEvents}), dedupe keys
 * ({@link dev.switchboard.core.ingress.DedupeKeys}), lane routing
 * ({@link dev.switchboard.core.ingress.SessionRouting}), timer buckets
 * ({@link dev.switchboard.core.ingress.TimerTicks}) and announcement outcomes
 * ({@link dev.switchboard.core.ingress.AnnounceOutcome}). The endpoints, tables and dispatch that
 * use them come with the rest of issue 4.
 */
package dev.switchboard.core.ingress;
