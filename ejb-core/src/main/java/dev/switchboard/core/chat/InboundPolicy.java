package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.InboundHooks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The built-in {@code beforeInbound} hook: rejects a person's input that matches
 * {@code switchboard.chat.inbound-block} (a regular expression, searched case-insensitively;
 * blank: every input passes).
 */
@ApplicationScoped
public class InboundPolicy implements InboundHooks.Hook {

    static final String REASON = "it matches the server's inbound policy";

    @Inject
    @ConfigProperty(name = "switchboard.chat.inbound-block", defaultValue = " ")
    String block;

    private volatile Pattern pattern;

    @Override
    public String name() {
        return "inbound-policy";
    }

    @Override
    public boolean active() {
        return !block.isBlank();
    }

    @Override
    public InboundHooks.Verdict beforeInbound(String userId, String channel, String content) {
        Pattern p = pattern();
        return p != null && p.matcher(content).find() ? new InboundHooks.Reject(REASON) : new InboundHooks.Pass();
    }

    private Pattern pattern() {
        if (block.isBlank()) {
            return null;
        }
        Pattern p = pattern;
        if (p == null) {
            try {
                p = Pattern.compile(block.strip(), Pattern.CASE_INSENSITIVE);
            } catch (PatternSyntaxException e) {
                throw new IllegalStateException("switchboard.chat.inbound-block is not a regular expression: "
                        + e.getDescription());
            }
            pattern = p;
        }
        return p;
    }
}
