package dev.switchboard.rest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A resource method that only refuses a method on a route (405): not an operation of the API, so
 * the OpenAPI document does not list it (OpenApiDocumentTest leaves it out).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Undocumented {
}
