package dev.switchboard.core.webhook;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One attempt: checks what the endpoint's host resolves to now against the policy (a name that
 * resolves elsewhere since registration is refused now), then POSTs the signed body. Redirects are
 * not followed; the whole attempt, answer included, has a deadline; of the answer only the first
 * {@value #EXCERPT_BYTES} bytes are read (then the connection is dropped), for the delivery log.
 */
final class WebhookSender {

    static final int EXCERPT_BYTES = 512;

    private final HttpClient client;
    private final AddressPolicy policy;
    private final Duration deadline;
    private final Duration timeout;

    WebhookSender(AddressPolicy policy, Duration connectTimeout, Duration timeout) {
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1).build();
        this.policy = policy;
        this.timeout = timeout;
        this.deadline = connectTimeout.plus(timeout);
    }

    WebhookLedger.Result send(String url, String msgId, String body, List<String> secrets, long timestampSeconds) {
        long started = System.nanoTime();
        URI uri = URI.create(url);
        String refusal = policy.refusalNow(uri);
        if (refusal != null) {
            return result(null, started, WebhookAttempt.REFUSED, "not sent: " + refusal);
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Switchboard-Webhooks/1")
                .header("webhook-id", msgId)
                .header("webhook-timestamp", Long.toString(timestampSeconds))
                .header("webhook-signature", WebhookSignature.header(secrets, msgId, timestampSeconds, body))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(request, info -> new Excerpt());
        try {
            HttpResponse<String> response;
            try {
                response = answer.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (!isStaleConnection(e.getCause())) {
                    throw e;
                }
                // A kept-alive connection the receiver had closed while it idled (servers close idle
                // ones after a few seconds): the request never reached it. Sent again at once, on a
                // new connection — the same webhook-id, so a receiver that did see it deduplicates.
                // Within what is left of the one deadline: the message's lease covers one attempt.
                answer = client.sendAsync(request, info -> new Excerpt());
                response = answer.get(Math.max(1, deadline.toMillis() - millisSince(started)), TimeUnit.MILLISECONDS);
            }
            int status = response.statusCode();
            String text = response.body();
            if (status >= 300 && status < 400) {
                text = "redirect not followed" + response.headers().firstValue("Location").map(l -> " to " + clip(l)).orElse("");
            }
            return new WebhookLedger.Result(status, millisSince(started),
                    status >= 200 && status < 300 ? WebhookAttempt.DELIVERED : WebhookAttempt.RETRY, text);
        } catch (TimeoutException e) {
            answer.cancel(true);
            return result(null, started, WebhookAttempt.RETRY, "no answer within " + deadline.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return result(null, started, WebhookAttempt.RETRY, clip(cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage())));
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            return result(null, started, WebhookAttempt.RETRY, "interrupted: the instance is stopping");
        }
    }

    /** The JDK client's failure for a pooled connection found closed before any answer came. */
    static boolean isStaleConnection(Throwable cause) {
        return cause instanceof java.io.IOException && !(cause instanceof java.net.ConnectException)
                && !(cause instanceof java.net.http.HttpTimeoutException)
                && (cause.getClass().getSimpleName().equals("ConnectionExpiredException")
                        || String.valueOf(cause.getMessage()).contains("received no bytes"));
    }

    private static WebhookLedger.Result result(Integer status, long started, String outcome, String text) {
        return new WebhookLedger.Result(status, millisSince(started), outcome, text);
    }

    private static long millisSince(long started) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }

    /** Printable text, at most {@value #EXCERPT_BYTES} characters. */
    static String clip(String text) {
        String printable = text.replaceAll("[\\p{Cntrl}&&[^\\n\\t]]", "?");
        return printable.length() <= EXCERPT_BYTES ? printable : printable.substring(0, EXCERPT_BYTES);
    }

    /** The answer's first bytes as text; the rest is not read (the subscription is cancelled). */
    private static final class Excerpt implements HttpResponse.BodySubscriber<String> {

        private final CompletableFuture<String> text = new CompletableFuture<>();
        private final ByteBuffer kept = ByteBuffer.allocate(EXCERPT_BYTES);
        private Flow.Subscription subscription;

        @Override
        public CompletionStage<String> getBody() {
            return text;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer item : items) {
                while (item.hasRemaining() && kept.hasRemaining()) {
                    kept.put(item.get());
                }
            }
            if (kept.hasRemaining()) {
                subscription.request(1);
            } else {
                subscription.cancel();
                complete();
            }
        }

        @Override
        public void onError(Throwable t) {
            if (!text.isDone()) {
                text.completeExceptionally(t);
            }
        }

        @Override
        public void onComplete() {
            complete();
        }

        private void complete() {
            byte[] bytes = Arrays.copyOf(kept.array(), kept.position());
            text.complete(clip(new String(bytes, StandardCharsets.UTF_8)));
        }
    }
}
