/**
 * What operators count: the application's metrics (messages, runs by engine and outcome, run
 * durations, fenced results, lease takeovers, ingress events, notification lag) and the gauges
 * the other packages hand in, registered with MicroProfile Metrics and served by Liberty at
 * {@code /metrics} in Prometheus format. The lowest package of all, so every other may report.
 */
package dev.switchboard.core.metrics;
