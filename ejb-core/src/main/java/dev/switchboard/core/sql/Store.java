package dev.switchboard.core.sql;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a store: a class that reads and writes rows, naming the tables it works on. Only a store
 * (or a type nested in one) touches a persistence entity or holds SQL; every other class goes through
 * one. The architecture tests read this mark, not a class's name.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Store {

    /** The tables whose rows this store reads or writes. */
    String[] value();
}
