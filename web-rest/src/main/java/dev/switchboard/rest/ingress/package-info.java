/** Event ingress over HTTP: GitHub webhooks. */
package dev.switchboard.rest.ingress;
