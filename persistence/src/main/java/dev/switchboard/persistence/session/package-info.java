/**
 * How the persistence unit's EclipseLink session treats a failed statement. Liberty's server
 * configuration names the customizer here (see liberty-config's server.xml).
 */
package dev.switchboard.persistence.session;
