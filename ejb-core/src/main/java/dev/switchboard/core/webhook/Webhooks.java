package dev.switchboard.core.webhook;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.credential.Credentials;
import dev.switchboard.core.json.Jsons;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A user's webhook endpoints, as REST, JSON-RPC, the CLI and the dashboard manage them: each call
 * one transaction, on the caller's own endpoints only (another user's id is not found). A URL is
 * checked against the {@link AddressPolicy} on what its host resolves to now; the secret is made
 * here, sealed for storage and shown in clear only in the answer that made it.
 */
@Stateless
public class Webhooks {

    static final int DEFAULT_PAGE = 50;
    static final int MAX_PAGE = 200;

    @Inject
    WebhookEndpoints endpoints;

    @Inject
    WebhookMessages messages;

    @Inject
    WebhookSettings settings;

    @Inject
    Credentials credentials;

    @Inject
    InstanceClock clock;

    @Inject
    WebhookSignal signal;

    @Resource
    TransactionSynchronizationRegistry transactions;

    public JsonObject create(String userKey, JsonObject body, Set<String> doorMembers) {
        EndpointChange change = EndpointChange.parse(body, true, doorMembers);
        String url = allowedUrl(change.url());
        if (endpoints.count(userKey) >= settings.maxEndpoints()) {
            throw new WebhookException(409, "webhook_limit", "a user has at most " + settings.maxEndpoints()
                    + " webhook endpoints; remove one first");
        }
        long now = clock.millis();
        String id = "ep_" + UUID.randomUUID().toString().replace("-", "");
        String secret = WebhookSignature.newSecret();
        Endpoint e = change.created(id, userKey, url, credentials.seal(userKey, purpose(id), secret), now);
        endpoints.insert(e);
        return WebhookJson.endpoint(e, secret, now);
    }

    public JsonObject list(String userKey) {
        long now = clock.millis();
        JsonArrayBuilder data = Jsons.createArrayBuilder();
        endpoints.ofUser(userKey).forEach(e -> data.add(WebhookJson.endpoint(e, null, now)));
        return Jsons.createObjectBuilder().add("data", data).build();
    }

    public JsonObject read(String userKey, String id) {
        return WebhookJson.endpoint(own(userKey, id), null, clock.millis());
    }

    /** Changes what is given; enabling an endpoint clears why it was disabled, and its waiting messages go out. */
    public JsonObject update(String userKey, String id, JsonObject body, Set<String> doorMembers) {
        EndpointChange change = EndpointChange.parse(body, false, doorMembers);
        // The address is looked up before the endpoint is read: no database connection waits on DNS.
        String url = change.url() == null ? null : allowedUrl(change.url());
        Endpoint e = own(userKey, id);
        long now = clock.millis();
        Endpoint changed = change.applyTo(e, url, now);
        endpoints.update(changed);
        if (changed.enabled() && !e.enabled()) {
            signal.raiseOnCommit(transactions);
        }
        return WebhookJson.endpoint(changed, null, now);
    }

    /** Deletes the endpoint with its messages and their log. */
    public void delete(String userKey, String id) {
        own(userKey, id);
        messages.deleteOfEndpoint(id);
        endpoints.delete(userKey, id);
    }

    /**
     * A new secret; the one it replaces keeps signing beside it for the request's
     * {@code grace_seconds} ({@link Rotation}: a day when absent), so receivers can switch over
     * without missing a message. {@code doorMembers} names members the door itself uses (an id).
     */
    public JsonObject rotate(String userKey, String id, JsonObject request, Set<String> doorMembers) {
        long grace = Rotation.graceSeconds(request, doorMembers);
        Endpoint e = own(userKey, id);
        long now = clock.millis();
        String secret = WebhookSignature.newSecret();
        Endpoint rotated = e.rotated(credentials.seal(userKey, purpose(id), secret), grace, now);
        endpoints.update(rotated);
        return WebhookJson.endpoint(rotated, secret, now);
    }

    /** The endpoint's messages, newest first, a page after {@code cursor} (a message's row id, as issued). */
    public JsonObject messages(String userKey, String id, String cursor, Integer limit) {
        own(userKey, id);
        int n = limit(limit);
        long now = clock.millis();
        List<WebhookMessage> page = messages.page(id, before(cursor), n);
        JsonArrayBuilder data = Jsons.createArrayBuilder();
        page.forEach(m -> data.add(WebhookJson.message(m, now)));
        return paged(data, page.size() == n ? page.get(n - 1).id() : null);
    }

    /** The delivery log: the endpoint's attempts, newest first (of one message, when named). */
    public JsonObject attempts(String userKey, String id, String messageId, String cursor, Integer limit) {
        own(userKey, id);
        int n = limit(limit);
        List<WebhookAttempt> page = messages.attempts(id, messageId, before(cursor), n);
        JsonArrayBuilder data = Jsons.createArrayBuilder();
        page.forEach(a -> data.add(WebhookJson.attempt(a)));
        return paged(data, page.size() == n ? page.get(n - 1).id() : null);
    }

    /** Sends the message again, with its {@code webhook-id}, at once (in its lane's order). */
    public JsonObject replay(String userKey, String id, String messageId) {
        own(userKey, id);
        WebhookMessage m = messages.find(id, messageId);
        if (m == null) {
            throw WebhookException.notFound("message", messageId);
        }
        long now = clock.millis();
        if (!messages.replay(m.id())) {
            throw new WebhookException(409, "message_sending", "message " + messageId
                    + " is being sent right now; its attempt's outcome is in the delivery log shortly");
        }
        signal.raiseOnCommit(transactions);
        return WebhookJson.message(messages.find(id, messageId), now);
    }

    static String purpose(String endpointId) {
        return "webhook:" + endpointId;
    }

    private Endpoint own(String userKey, String id) {
        Endpoint e = id == null ? null : endpoints.find(userKey, id);
        if (e == null) {
            throw WebhookException.notFound("webhook", id);
        }
        return e;
    }

    /** The URL, if the policy allows it at the addresses its host has now. */
    private String allowedUrl(String url) {
        URI uri = AddressPolicy.parse(url);
        String refusal = settings.addressPolicy().refusalNow(uri);
        if (refusal != null) {
            throw WebhookException.invalid("url_not_allowed", refusal);
        }
        return uri.toString();
    }

    private static int limit(Integer limit) {
        if (limit == null) {
            return DEFAULT_PAGE;
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw WebhookException.invalid("invalid_limit", "limit is from 1 to " + MAX_PAGE);
        }
        return limit;
    }

    private static long before(String cursor) {
        if (cursor == null) {
            return Long.MAX_VALUE;
        }
        try {
            long id = Long.parseLong(cursor);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw WebhookException.invalid("invalid_cursor", "cursor is not one this server issued");
    }

    private static JsonObject paged(JsonArrayBuilder data, Long next) {
        JsonObjectBuilder b = Jsons.createObjectBuilder().add("data", data);
        if (next == null) {
            b.addNull("next_cursor");
        } else {
            b.add("next_cursor", Long.toString(next));
        }
        return b.build();
    }
}
