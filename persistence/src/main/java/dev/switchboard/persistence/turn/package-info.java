/** Turns: the control plane's unit of conversation, made of runs. */
package dev.switchboard.persistence.turn;
