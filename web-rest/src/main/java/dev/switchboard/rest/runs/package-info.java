/** Reading runs back: one run, a long-poll until it ends, and a thread's runs in lane order. */
package dev.switchboard.rest.runs;
