package dev.switchboard.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SoakTrendTest {

    private static final long MB = 1_000_000;

    /** Ten minutes: the first two a warm-up, then steady figures with a little noise. */
    private static List<SoakTrend.Minute> steady() {
        List<SoakTrend.Minute> minutes = new ArrayList<>();
        for (int m = 1; m <= 10; m++) {
            boolean warm = m <= 2;
            minutes.add(new SoakTrend.Minute(m, 1200, 0, warm ? 900 : 80 + m % 3 * 10, (warm ? 300 : 120 + m % 2 * 5) * MB,
                    warm ? 140 : 90 + m % 2, warm ? 400 : 150 + m % 3, warm ? 30 : 12 + m % 2));
        }
        return minutes;
    }

    @Test
    void steadyFiguresAfterTheWarmUpDidNotGrowWhateverTheWarmUpDid() {
        assertEquals(List.of(), SoakTrend.grew(steady(), 2));
    }

    @Test
    void aFigureThatKeepsClimbingGrew() {
        List<SoakTrend.Minute> minutes = new ArrayList<>();
        for (SoakTrend.Minute m : steady()) {
            minutes.add(new SoakTrend.Minute(m.index(), m.requests(), 0, m.p99Ms(), m.heapBytes() + m.index() * 30 * MB,
                    m.threads() + m.index() * 4, m.openFiles(), m.dbConnections()));
        }
        List<String> grew = SoakTrend.grew(minutes, 2);
        assertEquals(2, grew.size(), grew.toString());
        assertTrue(grew.get(0).startsWith("heap after GC"), grew.toString());
        assertTrue(grew.get(1).startsWith("threads"), grew.toString());
    }

    @Test
    void tooFewMeasuredMinutesAreNotJudged() {
        assertEquals(List.of(), SoakTrend.grew(steady().subList(0, 3), 2));
    }
}
