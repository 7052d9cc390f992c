package dev.switchboard.core.turn;

import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.execution.StoredRuns.StoredRun;
import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.run.RunLedger;
import dev.switchboard.core.run.RunView;
import dev.switchboard.core.thread.ThreadKind;
import dev.switchboard.core.thread.ThreadListing;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.core.thread.ThreadRow;
import dev.switchboard.core.thread.TurnRows;

import dev.switchboard.persistence.run.RunState;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Read models for {@code thread/list}, {@code thread/read}, {@code turn/read} and a thread's history. */
@Stateless
public class TurnQueries {

    @Inject
    ThreadRepository repository;

    @Inject
    ThreadItems items;

    @Inject
    TurnRows turns;

    @Inject
    StoredRuns runs;

    public record ThreadSummary(String threadKey, long createdAt, long activeTurns, ThreadKind kind) {
    }

    public record ThreadPage(List<ThreadSummary> threads, String nextAfter) {
    }

    public record Conversation(List<RunView> runs, List<TurnItem> items) {
    }

    public record ThreadContent(ThreadSummary thread, Conversation page, Long nextAfterSeq) {
    }

    public record TurnContent(TurnView turn, Conversation conversation) {
    }

    /**
     * A page of the user's threads after the key {@code after}, by key: internal ones only when
     * {@code includeInternal}, only keys containing {@code query} (any case) when it is not blank —
     * see {@link ThreadListing} for the bounded search and what its {@code nextAfter} means.
     */
    public ThreadPage threads(String userKey, String after, int limit, boolean includeInternal, String query) {
        ThreadListing.Page listed = ThreadListing.page(
                (afterKey, n) -> repository.listed(userKey, afterKey, includeInternal, n),
                after, limit, ThreadListing.needle(query), ThreadListing.SEARCH_BUDGET);
        Map<Long, Long> active = turns.activeCounts(userKey, listed.threads().stream().map(ThreadRow::id).toList());
        List<ThreadSummary> threads = listed.threads().stream()
                .map(t -> new ThreadSummary(t.threadKey(), t.createdAt(), active.getOrDefault(t.id(), 0L), t.kind()))
                .toList();
        return new ThreadPage(threads, listed.nextAfter());
    }

    public Optional<ThreadContent> thread(String userKey, String threadKey, long afterSeq, int limit) {
        Optional<ThreadRow> thread = repository.row(userKey, threadKey);
        if (thread.isEmpty()) {
            return Optional.empty();
        }
        ThreadRow t = thread.get();
        List<StoredRun> runs = this.runs.after(t.id(), afterSeq, limit + 1);
        boolean more = runs.size() > limit;
        List<StoredRun> page = more ? runs.subList(0, limit) : runs;
        long active = turns.activeCounts(userKey, List.of(t.id())).getOrDefault(t.id(), 0L);
        return Optional.of(new ThreadContent(new ThreadSummary(t.threadKey(), t.createdAt(), active, t.kind()),
                conversation(page), more ? page.get(limit - 1).threadSeq() : null));
    }

    /** The user's thread's history after {@code afterSeq}, up to {@code limit} items; empty when there is no such thread. */
    public Optional<HistoryPage> history(String userKey, String threadKey, long afterSeq, int limit) {
        Optional<Long> thread = repository.idOf(userKey, threadKey);
        if (thread.isEmpty()) {
            return Optional.empty();
        }
        List<StoredItem> found = items.after(thread.get(), afterSeq, limit + 1);
        boolean more = found.size() > limit;
        List<StoredItem> page = more ? found.subList(0, limit) : found;
        return Optional.of(new HistoryPage(page, more ? page.get(limit - 1).seq() : null));
    }

    /** The active turns of the user's thread, oldest first; none when there is no such thread. */
    public List<TurnView> activeTurns(String userKey, String threadKey) {
        return repository.idOf(userKey, threadKey)
                .map(id -> turns.activeOnThread(id).stream().map(TurnQueries::view).toList())
                .orElse(List.of());
    }

    /** How many active turns each of the user's threads has, by thread key (absent: none). */
    public Map<String, Long> activeTurnCounts(String userKey, List<String> threadKeys) {
        return turns.activeCountsByKey(userKey, threadKeys);
    }

    /** The id of the first run of the user's turn {@code turnId}. */
    public Optional<String> firstRunId(String userKey, String turnId) {
        return turn(userKey, turnId).map(t -> t.conversation().runs().get(0).runId());
    }

    public Optional<TurnContent> turn(String userKey, String turnId) {
        TurnRows.TurnRow turn = turns.read(turnId);
        if (turn == null || !turn.userKey().equals(userKey)) {
            return Optional.empty();
        }
        List<StoredRun> runs = this.runs.ofTurn(turnId);
        return Optional.of(new TurnContent(view(turn), conversation(runs)));
    }

    private Conversation conversation(List<StoredRun> runs) {
        List<TurnItem> items = new ArrayList<>();
        for (StoredRun run : runs) {
            List<jakarta.json.JsonObject> input = TurnInput.stored(run.inputJson(), run.inputText()).messages();
            for (int i = 0; i < input.size(); i++) {
                items.add(new TurnItem(run.runId() + ":in:" + i, run.runId(), run.turnId(),
                        input.get(i).getString("role", "user"), "completed", input.get(i)));
            }
            String reply = run.state() == RunState.SUCCEEDED ? Lifecycle.replyText(run.outputJson()) : null;
            if (reply != null && !reply.isEmpty()) {
                items.add(new TurnItem(run.runId() + ":out", run.runId(), run.turnId(), "assistant",
                        "completed", Lifecycle.assistantMessage(reply)));
            }
        }
        return new Conversation(runs.stream().map(RunLedger::view).toList(), items);
    }

    private static TurnView view(TurnRows.TurnRow t) {
        return new TurnView(t.turnId(), t.threadKey(), t.state(), t.outcome(), t.message(), t.mergedInto(),
                t.startedAt(), t.endedAt());
    }
}
