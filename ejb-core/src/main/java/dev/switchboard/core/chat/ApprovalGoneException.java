package dev.switchboard.core.chat;

import jakarta.ejb.ApplicationException;

/**
 * The approval an answer was for is no longer pending (answered meanwhile, or dropped by
 * {@code /interrupt}): the turn that would have carried the answer out is rolled back.
 */
@ApplicationException(rollback = true)
public class ApprovalGoneException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ApprovalGoneException(String message) {
        super(message);
    }
}
