package dev.switchboard.core.conversation;

import java.util.Set;

/**
 * Who may resolve a thread's pending approval (spec §8.4): the channel the thread came from, or a
 * trusted one ({@code web}, {@code gateway}); a thread of unknown origin, nobody (fail-closed); a
 * thread created at bootstrap, anybody. Channel names are the server's to give: a caller cannot
 * name itself {@code web}, and {@code __bootstrap__} as a requester earns no trust of its own.
 */
public final class ApprovalAuthority {

    public static final String BOOTSTRAP_SOURCE_CHANNEL = "__bootstrap__";
    public static final Set<String> TRUSTED_APPROVAL_CHANNELS = Set.of("web", "gateway");

    private ApprovalAuthority() {
    }

    public static boolean isApprovalAuthorized(String sourceChannel, String requesterChannel) {
        if (sourceChannel == null || requesterChannel == null) {
            return false;
        }
        if (BOOTSTRAP_SOURCE_CHANNEL.equals(sourceChannel)) {
            return true;
        }
        return sourceChannel.equals(requesterChannel) || TRUSTED_APPROVAL_CHANNELS.contains(requesterChannel);
    }
}
