package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The spec's vectors (holon-serve §8–§12) for the plain ingress rules. */
class IngressRulesTest {

    private static final Instant NOW = Instant.parse("2026-02-22T08:56:17Z");

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text.replace('\'', '"'))).readObject();
    }

    private static EventEnvelope github(String body) {
        return GithubEvents.normalise(json(body), "hint/repo", "evt_1", NOW);
    }

    @Test
    void valuesTooLongForTheirColumnsAreRefusedNotTruncated() {
        String longRepo = "o/" + "r".repeat(505);
        InvalidEventException repo = assertThrows(InvalidEventException.class, () -> github(
                "{'x_github_event':'issues','action':'opened','issue':{'number':1},'repository':{'full_name':'" + longRepo
                        + "'}}"));
        assertEquals("repository.full_name", repo.field());
        assertEquals("number", assertThrows(InvalidEventException.class, () -> github(
                "{'x_github_event':'issues','action':'opened','issue':{'number':'" + "9".repeat(200)
                        + "'},'repository':{'full_name':'o/r'}}")).field());
        assertEquals("action", assertThrows(InvalidEventException.class, () -> github(
                "{'x_github_event':'issues','action':'" + "a".repeat(300) + "','issue':{'number':1},"
                        + "'repository':{'full_name':'o/r'}}")).field());
    }

    // §9.2 normalisation vectors

    @Test
    void issueCommentOnAnIssue() {
        EventEnvelope e = github("{'x_github_event':'issue_comment','action':'created','issue':{'number':527},"
                + "'comment':{'id':99},'repository':{'full_name':'holon-run/holon'}}");
        assertEquals("github.issue.comment.created", e.type());
        assertEquals(new EventEnvelope.Subject("issue", "527"), e.subject());
        assertEquals("holon-run/holon", e.scope().repo());
        assertEquals("github", e.source());
        assertEquals("github:holon-run/holon:issue:527:issue_comment:99:created", e.dedupeKey());
    }

    @Test
    void reviewSubmittedWithTopLevelNumber() {
        EventEnvelope e = github("{'event':'pull_request_review','action':'submitted','number':549,'review':{'id':7}}");
        assertEquals("github.pull_request_review.submitted", e.type());
        assertEquals(new EventEnvelope.Subject("pull_request", "549"), e.subject());
        assertEquals("hint/repo", e.scope().repo(), "the repo hint stands in for a missing repository");
        assertEquals("github:hint/repo:pull_request:549:review:7:submitted", e.dedupeKey());
    }

    @Test
    void reviewCommentAndEditedIssueComment() {
        EventEnvelope rc = github("{'event':'pull_request_review_comment','action':'created',"
                + "'pull_request':{'number':12},'comment':{'id':5}}");
        assertEquals("github.pull_request_review_comment.created", rc.type());
        assertEquals("pull_request", rc.subject().kind());
        assertEquals("github:hint/repo:pull_request:12:review_comment:5:created", rc.dedupeKey());
        assertEquals("github.issue.comment.edited", github("{'event':'issue_comment','action':'Edited',"
                + "'issue':{'number':1}}").type(), "actions are lower-cased");
    }

    @Test
    void labeledIssueThatIsAPullRequest() {
        EventEnvelope e = github("{'event':'issues','action':'labeled','issue':{'number':579,'pull_request':{}},"
                + "'label':{'name':'Bug'}}");
        assertEquals("github.pull_request.labeled", e.type());
        assertEquals(new EventEnvelope.Subject("pull_request", "579"), e.subject());
        assertEquals("github:hint/repo:pull_request:579:label:labeled:bug", e.dedupeKey());
        EventEnvelope issue = github("{'event':'issues','action':'labeled','issue':{'number':579},'label':{'name':'Bug'}}");
        assertNotEquals(e.dedupeKey(), issue.dedupeKey(), "issue and pull-request label keys differ");
    }

    @Test
    void eventAndDeliveryFromAHeadersMap() {
        EventEnvelope e = github("{'headers':{'x-github-event':['issues'],'X-GitHub-Delivery':'delivery-1'},"
                + "'action':'opened','issue':{'number':3}}");
        assertEquals("github.issue.opened", e.type());
        assertEquals("github:delivery:delivery-1", e.dedupeKey());
    }

    @Test
    void requestHeadersAreMergedAndWinForDedupe() {
        JsonObject merged = GithubEvents.withHeaders(json("{'action':'opened','issue':{'number':3}}"), "issues", "d-42");
        EventEnvelope e = GithubEvents.normalise(merged, "r/r", "evt_2", NOW);
        assertEquals("github:delivery:d-42", e.dedupeKey());
        assertEquals("issues", merged.getString("x_github_event"));
    }

    @Test
    void checkSuiteReadsTheNestedPullRequestsAndKeepsTheAction() {
        EventEnvelope e = github("{'event':'check_suite','action':'requested',"
                + "'check_suite':{'pull_requests':[{'number':31}]}}");
        assertEquals("github.check_suite.requested", e.type());
        assertEquals(new EventEnvelope.Subject("pull_request", "31"), e.subject());
    }

    @Test
    void unsupportedEventsAndActionsAreRefused() {
        assertThrows(UnsupportedEventException.class, () -> github("{'event':'push'}"));
        assertThrows(UnsupportedEventException.class, () -> github("{'action':'opened'}"));
        assertThrows(UnsupportedEventException.class,
                () -> github("{'event':'issue_comment','action':'pinned','issue':{'number':1}}"));
        assertEquals("0", github("{'event':'issues','action':'opened'}").subject().id(), "a missing number is 0");
    }

    // §9.3 generic keys

    @Test
    void genericKeysJoinAndTrimColons() {
        EventEnvelope e = new EventEnvelope("e", "ci", "build.done", NOW, EventEnvelope.Scope.EMPTY,
                EventEnvelope.Subject.EMPTY, "", null);
        assertEquals("ci::::build.done", DedupeKeys.of(e), "inner empty parts stay");
        assertEquals("", DedupeKeys.of(new EventEnvelope("e", "ci", "", NOW, null, null, "", null)));
        assertEquals("a:b", DedupeKeys.join("", "a", "b", ""));
    }

    // §10.1 routing vectors

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "github||holon-run/holon|||{'session_key':' thread_x '}|thread_x",
            "github|repo:holon-run/holon||||{}|event:repo:holon-run/holon",
            "github||holon-run/holon|||{}|event:holon-run/holon",
            "github|||issue|698|{}|event:github:issue:698",
            "timer||||||event:timer:timer.tick",
            "|||||{}|main",
    })
    void routingVectors(String source, String partition, String repo, String kind, String id, String payload,
            String expected) {
        EventEnvelope e = new EventEnvelope("e", source, source == null ? "" : "timer".equals(source) ? "timer.tick" : "",
                NOW, new EventEnvelope.Scope("", partition, repo, "", ""), new EventEnvelope.Subject(kind, id), "",
                payload == null ? null : json(payload));
        assertEquals(expected, SessionRouting.route(e));
    }

    @Test
    void threadIdRoutesVerbatimToo() {
        EventEnvelope e = new EventEnvelope("e", "github", "t", NOW, EventEnvelope.Scope.EMPTY.withRepo("a/b"), null, "",
                json("{'thread_id':'Some Thread!'}"));
        assertEquals("Some Thread!", SessionRouting.route(e));
    }

    @Test
    void sanitising() {
        assertEquals("a_b:c/d", SessionRouting.sanitize("a b:c/d"));
        assertEquals("héllo", SessionRouting.sanitize("__héllo__"));
        assertEquals("unknown", SessionRouting.sanitize("  $$ "));
    }

    // §8 timer vector

    @Test
    void timerBucketAndKey() {
        EventEnvelope tick = TimerTicks.tick("tick_1", "holon-run/holon", Instant.parse("2026-02-10T15:04:59Z"),
                Duration.ofMinutes(5));
        assertEquals("1770735600", tick.subject().id());
        assertEquals("timer:holon-run/holon:1770735600", tick.dedupeKey());
        assertEquals("timer.tick", tick.type());
        assertEquals("event:holon-run/holon", SessionRouting.route(tick));
        assertEquals(TimerTicks.bucket(Instant.parse("2026-02-10T15:00:00Z"), Duration.ofMinutes(5)),
                TimerTicks.bucket(Instant.parse("2026-02-10T15:04:59Z"), Duration.ofMinutes(5)));
    }

    // §12.2 announce vectors, H17, §12.3 filter

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'Decision: pr-fix\nAction Taken: updated_branch'|pr-fix|updated_branch",
            "'Action Taken: None required'|no-op|none_required",
            "'Completed processing event'|unknown|''",
            "'Decision: pr-review\nAction Taken: Posted Review'|pr-review|posted_review",
            "'decision: `PR_FIX`\nAction taken: * Pushed commit *'|pr-fix|updated_branch",
            "'We opened PR 12 for this'|issue-solve|opened_pr",
    })
    void announceVectors(String text, String decision, String action) {
        AnnounceOutcome outcome = AnnounceOutcome.derive(null, null, text.replace("\\n", "\n"));
        assertEquals(decision, outcome.decision());
        assertEquals(action, outcome.action());
    }

    @Test
    void decisionsAreAClosedEnum() {
        AnnounceOutcome outcome = AnnounceOutcome.derive("deploy", "Ran Deploy!", "");
        assertEquals("unknown", outcome.decision());
        assertEquals("deploy", outcome.decisionRaw());
        assertEquals("ran_deploy", outcome.action());
        assertNull(AnnounceOutcome.derive("pr-fix", null, "").decisionRaw());
    }

    @Test
    void noOpFilter() {
        for (String d : new String[] {"no-op", "no_op", "NOOP", "none", "none-required", "none_required", "no-op."}) {
            assertTrue(AnnounceOutcome.isNoOp(d), d);
        }
        assertFalse(AnnounceOutcome.isNoOp(""), "a missing decision becomes unknown and is shown");
        assertFalse(AnnounceOutcome.isNoOp("pr-fix"));
    }
}
