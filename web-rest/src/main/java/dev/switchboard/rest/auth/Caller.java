package dev.switchboard.rest.auth;

import jakarta.enterprise.context.RequestScoped;

/** The authenticated user of the current request, set by {@link CallerFilter}. */
@RequestScoped
public class Caller {

    private String user;

    void authenticated(String user) {
        this.user = user;
    }

    public String user() {
        if (user == null) {
            throw new IllegalStateException("no authenticated user on this request");
        }
        return user;
    }
}
