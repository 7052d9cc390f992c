package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.InboundHooks;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the {@code beforeInbound} hooks on a person's input ({@link InboundHooks}): every CDI bean
 * implementing {@link InboundHooks.Hook} in the application — the built-in {@link InboundPolicy},
 * and any a deployment adds — on the server's managed executor.
 */
@ApplicationScoped
public class ChatHooks {

    private static final Logger LOG = Logger.getLogger(ChatHooks.class.getName());

    @Inject
    @Any
    Instance<InboundHooks.Hook> hooks;

    @Resource
    ManagedExecutorService executor;

    public InboundHooks.Outcome beforeInbound(String userId, String channel, String content) {
        List<InboundHooks.Hook> all = hooks.stream().toList();
        return InboundHooks.run(all, userId, channel, content, InboundHooks.DEFAULT_TIMEOUT, executor,
                (hook, error) -> LOG.log(Level.WARNING, "The beforeInbound hook " + hook.name() + " failed ("
                        + (hook.failClosed() ? "fail-closed: the message is blocked" : "fail-open: skipped") + "): "
                        + error));
    }
}
