/**
 * People's conversations through the chat gateway (IronClaw's session model): one session per
 * user, threads reached from several channels through their own thread ids, and messages that
 * become turns of ordinary threads — durable runs in lanes — or commands on a thread. The rules are
 * {@link dev.switchboard.core.conversation}'s; this package stores sessions, threads and thread
 * keys (V14) and applies the rules in transactions.
 */
package dev.switchboard.core.chat;
