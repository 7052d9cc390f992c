/**
 * Sub-agent delegation through hierarchical thread paths (xml-pipeline's model, spec
 * {@code xml-pipeline-threads.md}): named {@link dev.switchboard.core.delegation.Agents agents}
 * call each other; a call extends the caller's path by the callee's segment (segment lists,
 * {@code #n} ordinals for repeats under one parent), each path with a UUID minted once and
 * journalled, its own lane and run; a reply pops one segment back to the caller with an injected
 * {@code from}; errors (routing, depth, handler, timeout) are delivered as SystemErrors, never
 * dropped. The rules are plain ({@link dev.switchboard.core.delegation.Agents},
 * {@link dev.switchboard.core.delegation.PathNames}, {@link dev.switchboard.core.delegation.DelegationRules},
 * {@link dev.switchboard.core.delegation.PathEnds}, {@link dev.switchboard.core.delegation.HandlerGate});
 * {@link dev.switchboard.core.delegation.PathLedger} (calls dispatched and replied),
 * {@link dev.switchboard.core.delegation.CallTimeouts} and {@link dev.switchboard.core.delegation.PathClosing}
 * apply them inside the lane's transactions to the registry ({@link dev.switchboard.core.delegation.PathRegistry}),
 * the call slots ({@link dev.switchboard.core.delegation.CallSlots}) and the journal
 * ({@link dev.switchboard.core.delegation.PathJournal}), on the lanes of
 * {@link dev.switchboard.core.delegation.PathLanes}; {@link dev.switchboard.core.delegation.PathReads}
 * reads them for engines and the API.
 */
package dev.switchboard.core.delegation;
