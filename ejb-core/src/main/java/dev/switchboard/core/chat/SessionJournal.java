package dev.switchboard.core.chat;

import dev.switchboard.core.runtime.LogJournal;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;

/**
 * The built-in observer of the session hooks: each start and end of a chat session is a line in
 * its user's log journal ({@code server/logStream}), so a person or operator sees when a session
 * began and when it was pruned. Other observers of {@link SessionStarted} and {@link SessionEnded}
 * run beside it, asynchronously; none can hold up or fail the call that fired them.
 */
@ApplicationScoped
public class SessionJournal {

    @EJB
    LogJournal journal;

    void started(@ObservesAsync SessionStarted started) {
        journal.note(started.userKey(), "info", "chat session " + started.sessionId() + " started");
    }

    void ended(@ObservesAsync SessionEnded ended) {
        journal.note(ended.userKey(), "info", "chat session " + ended.sessionId() + " ended after being idle ("
                + ended.threadIds().size() + " thread(s))");
    }
}
