package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.conversation.Submission.ApprovalResponse;
import dev.switchboard.core.conversation.Submission.ExecApproval;
import dev.switchboard.core.conversation.Submission.JobStatus;
import dev.switchboard.core.conversation.Submission.SystemCommand;
import dev.switchboard.core.conversation.Submission.UserInput;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The parser contract of spec §5 (upstream submission.rs, §14.6). */
class SubmissionsTest {

    private static Submission parse(String text) {
        return Submissions.parse(text);
    }

    private static void userInput(String text) {
        assertEquals(new UserInput(text), parse(text), text);
    }

    @Test
    void ordinaryTextIsUserInputAsTyped() {
        userInput("  Hello, World  ");
        userInput("what is /undo?");
        assertFalse(parse("hello").isControl());
    }

    @Test
    void threadCommandsIgnoreCaseAndSurroundingSpace() {
        assertEquals(new Submission.Undo(), parse("/undo"));
        assertEquals(new Submission.Undo(), parse("  /UNDO "));
        assertEquals(new Submission.Redo(), parse("/Redo"));
        assertEquals(new Submission.Interrupt(), parse("/interrupt"));
        assertEquals(new Submission.Interrupt(), parse("/stop"));
        assertEquals(new Submission.Compact(), parse("/compact"));
        assertEquals(new Submission.Clear(), parse("/clear"));
        assertEquals(new Submission.Heartbeat(), parse("/heartbeat"));
        assertEquals(new Submission.Summarize(), parse("/summarize"));
        assertEquals(new Submission.Summarize(), parse("/summary"));
        assertEquals(new Submission.Suggest(), parse("/suggest"));
        assertEquals(new Submission.NewThread(), parse("/thread new"));
        assertEquals(new Submission.NewThread(), parse("/new"));
        for (Submission control : List.of(parse("/undo"), parse("/redo"), parse("/stop"), parse("/compact"), parse("/clear"),
                parse("/new"), parse("/heartbeat"), parse("/summary"), parse("/suggest"))) {
            assertTrue(control.isControl(), control.toString());
        }
    }

    @Test
    void threadsAndCheckpointsAreNamedByUuid() {
        UUID id = UUID.randomUUID();
        assertEquals(new Submission.SwitchThread(id), parse("/thread " + id));
        userInput("/thread not-a-uuid");
        assertEquals(new Submission.ListThreads(), parse("/resume"));
        assertEquals(new Submission.Resume(id), parse("/resume " + id));
        userInput("/resume 1234");
    }

    @Test
    void invalidCommandsBecomeUserInput() {
        userInput("/undo now");
        userInput("/unknown");
        userInput("/cancel");
        userInput("/expected");
        userInput("/expected   ");
    }

    @Test
    void expectedKeepsItsText() {
        assertEquals(new Submission.Expected("The Answer Was 42"), parse("/expected The Answer Was 42"));
    }

    @Test
    void systemCommandsMatchByNameAndKeepTheirArguments() {
        assertEquals(new SystemCommand("help", List.of()), parse("/help"));
        assertEquals(new SystemCommand("help", List.of()), parse("/?"));
        assertEquals(new SystemCommand("help", List.of()), parse("/HELP"));
        assertEquals(new SystemCommand("model", List.of("GPT-4o-Mini")), parse("/model GPT-4o-Mini"));
        assertEquals(new SystemCommand("version", List.of()), parse("/version"));
        assertEquals(new SystemCommand("tools", List.of()), parse("/tools"));
        assertEquals(new SystemCommand("ping", List.of()), parse("/ping"));
        assertEquals(new SystemCommand("debug", List.of()), parse("/debug"));
        assertEquals(new SystemCommand("skills", List.of()), parse("/skills"));
        assertEquals(new SystemCommand("skills", List.of("search", "Markdown")), parse("/skills search Markdown"));
        assertEquals(new SystemCommand("reasoning", List.of("high")), parse("/reasoning high"));
        assertTrue(parse("/help").isControl());
    }

    @Test
    void jobCommands() {
        assertEquals(new JobStatus(Optional.empty()), parse("/status"));
        assertEquals(new JobStatus(Optional.of("Job-7")), parse("/status Job-7"));
        assertEquals(new JobStatus(Optional.of("j1")), parse("/progress j1"));
        assertEquals(new JobStatus(Optional.empty()), parse("/list"));
        assertEquals(new Submission.JobCancel("j1"), parse("/cancel j1"));
        assertTrue(parse("/status").isControl());
        assertTrue(parse("/cancel j1").isControl());
    }

    @Test
    void quitInAnyCase() {
        for (String q : List.of("/quit", "/exit", "/shutdown", "/QUIT", "/Exit")) {
            assertEquals(new Submission.Quit(), parse(q), q);
        }
        assertFalse(parse("/quit").isControl());
    }

    @Test
    void approvalKeywordsAndTheirAliases() {
        for (String yes : List.of("yes", "y", "approve", "ok", "/approve", "/yes", "/y", "YES", " Ok ")) {
            assertEquals(new ApprovalResponse(true, false), parse(yes), yes);
        }
        for (String always : List.of("always", "a", "yes always", "approve always", "/always", "/a")) {
            assertEquals(new ApprovalResponse(true, true), parse(always), always);
        }
        for (String no : List.of("no", "n", "deny", "reject", "cancel", "/deny", "/no", "/n")) {
            assertEquals(new ApprovalResponse(false, false), parse(no), no);
        }
        assertFalse(parse("yes").isControl());
    }

    @Test
    void pairingClaimsTakeExactlyAChannelAndACode() {
        assertEquals(new Submission.PairingClaim("telegram", "AbC123"), parse("approve telegram AbC123"));
        assertEquals(new Submission.PairingClaim("telegram", "AbC123"), parse("/approve telegram AbC123"));
        assertEquals(new Submission.PairingClaim("telegram", "X"), parse("approve TeleGram X"));
        userInput("approve telegram code extra");
        assertEquals(new ApprovalResponse(true, false), parse("approve"), "alone it is still an approval");
    }

    @Test
    void structuredApprovalsAndRetiredJsonSubmissions() {
        UUID id = UUID.randomUUID();
        assertEquals(new ExecApproval(id, true, false),
                parse("{\"ExecApproval\":{\"request_id\":\"" + id + "\",\"approved\":true,\"always\":false}}"));
        assertEquals(new ExecApproval(id, true, true),
                parse("{\"ExecApproval\":{\"request_id\":\"" + id + "\",\"approved\":true,\"always\":true}}"));
        assertEquals(new ExecApproval(id, false, false),
                parse("{\"ExecApproval\":{\"request_id\":\"" + id + "\",\"approved\":false}}"));
        assertInstanceOf(Submission.ExternalCallback.class, parse("{\"ExternalCallback\":{\"id\":1}}"));
        assertInstanceOf(Submission.GateAuthResolution.class, parse("{\"GateAuthResolution\":{\"ok\":true}}"));
        userInput("{\"name\":\"not an approval\"}");
        userInput("{\"ExecApproval\":{\"request_id\":\"nope\",\"approved\":true}}");
        userInput("{not json");
    }

    @Test
    void planModeRewritesTheInput() {
        assertEquals(new UserInput("[PLAN MODE] build the thing"), parse("/plan build the thing"));
    }
}
