package io.bdmpi.tests;

import io.bdmpi.tests.programs.LongLines;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lines longer than the 64 KiB a slave writes at once, printed by 4 ranks running together: each
 * goes out in pieces that are lines of their own (prefixed under --tag-output), so no rank's text
 * joins another's, and nothing is lost.
 */
class LongLinesTest {

    private static final int RANKS = 4;
    private static final int LENGTH = 150_000;
    private static final int LINES = 5;
    private static final Pattern TAGGED = Pattern.compile("\\[(\\d+)\\] (.*)");

    @ParameterizedTest(name = "tagged {0}")
    @ValueSource(booleans = {false, true})
    void longLinesOfRanksRunningTogetherDoNotMix(boolean tagged) {
        JobRunner job = JobRunner.job(LongLines.class).ranks(RANKS).running(RANKS).args(LENGTH, LINES);
        JobResult r = (tagged ? job.options("--tag-output") : job).run();
        Expect.successfulRun(r, RANKS, RANKS);
        Map<Character, Integer> letters = new HashMap<>();
        for (String line : r.stdout()) {
            String text = line;
            if (tagged) {
                Matcher m = TAGGED.matcher(line);
                Expect.that(r, m.matches(), "an untagged piece: " + line.substring(0, Math.min(40, line.length())));
                text = m.group(2);
                Expect.that(r, text.startsWith(String.valueOf((char) ('A' + Integer.parseInt(m.group(1))))),
                        "rank " + m.group(1) + "'s piece holds another's text");
            }
            char letter = text.isEmpty() ? ' ' : text.charAt(0);
            Expect.that(r, letter >= 'A' && letter < 'A' + RANKS && text.chars().allMatch(c -> c == letter),
                    "a line mixes ranks, or is no rank's: " + text.length() + " characters from " + letter);
            letters.merge(letter, text.length(), Integer::sum);
        }
        for (int rank = 0; rank < RANKS; rank++) {
            int printed = letters.getOrDefault((char) ('A' + rank), 0);
            Expect.that(r, printed == LENGTH * LINES, "rank " + rank + " printed " + printed + " characters, not "
                    + LENGTH * LINES);
        }
    }
}
