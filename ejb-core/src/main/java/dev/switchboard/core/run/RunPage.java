package dev.switchboard.core.run;

import java.util.List;

/** One page of a thread's runs in lane order; {@code nextAfterSeq} is null on the last page. */
public record RunPage(List<RunView> runs, Long nextAfterSeq) {
}
