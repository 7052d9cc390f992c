package dev.switchboard.cli;

/** A failure to report to the user as one line on stderr, with exit status 1. */
final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message, null, false, false);
    }
}
