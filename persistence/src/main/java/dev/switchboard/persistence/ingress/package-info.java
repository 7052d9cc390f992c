/** Ingress records: received events, the decisions taken on them, the actions that followed. */
package dev.switchboard.persistence.ingress;
