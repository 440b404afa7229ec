package io.bdmpi.tests;

import io.bdmpi.examples.Ring;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

/**
 * The Ring example: the token goes around ten times, then a large array once, checked by every
 * rank. Large arrays over {@code -im} must travel through spill files, small ones inline.
 */
class RingTest {

    static final int FOUR_MIB = 4 * 1024 * 1024;
    /** Every rank forwards the token 11 times (values 10 down to 0). */
    static final int TOKEN_SENDS = 11;

    @ParameterizedTest(name = "-ns {0} -nr {1}, 4 MiB array over -im 4096 (spilled)")
    @CsvSource({"1,1", "2,1", "2,2", "4,1", "4,2", "4,4", "16,1", "16,2", "16,16"})
    void largeArrayGoesThroughSpillFiles(int ranks, int running) {
        JobResult r = JobRunner.job(Ring.class).ranks(ranks).running(running).inlineMax(4096).args(FOUR_MIB).run();
        Stats s = checkRing(r, ranks, running, FOUR_MIB);
        Stats.Node n = s.node0();
        Expect.that(r, n.bytesSpilled() == (long) ranks * FOUR_MIB && n.spillFiles() == ranks
                        && n.bytesInline() == (long) ranks * TOKEN_SENDS * Integer.BYTES,
                "each rank sends 11 4-byte tokens inline and one 4 MiB array spilled, but the node has " + n);
        for (Stats.Slave sl : s.slaves()) {
            Expect.that(r, sl.bytesSentSpilled() == FOUR_MIB && sl.bytesSentInline() == TOKEN_SENDS * Integer.BYTES,
                    "rank " + sl.rank() + " sent 4 MiB spilled and 44 bytes inline, but stats say " + sl);
        }
    }

    /** Blocked placement: one hop per node boundary crosses over MPI, the last one back to node 0. */
    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, 4 MiB array spilled on both sides")
    @CsvSource({"2,2,1", "3,2,2"})
    void largeArrayCrossesNodes(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Ring.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(FOUR_MIB).run();
        int ranks = nodes * perNode;
        Stats.Node total = checkRing(r, nodes, perNode, running, FOUR_MIB).total();
        Expect.that(r, total.bytesSpilled() == (long) ranks * FOUR_MIB
                        && total.bytesInline() == (long) ranks * TOKEN_SENDS * Integer.BYTES,
                "each rank sends 11 4-byte tokens inline and one 4 MiB array spilled, but the nodes have " + total);
    }

    @ParameterizedTest(name = "-ns {0} -nr {1}, 16 KiB array under the default -im (inline)")
    @CsvSource({"1,1", "2,1", "4,2", "16,16"})
    void smallArrayStaysInline(int ranks, int running) {
        int bytes = 16 * 1024;
        JobResult r = JobRunner.job(Ring.class).ranks(ranks).running(running).args(bytes).run();
        Stats s = checkRing(r, ranks, running, bytes);
        Stats.Node n = s.node0();
        Expect.that(r, n.bytesSpilled() == 0 && n.spillFiles() == 0,
                "nothing should be spilled under the default -im, got " + n);
        Expect.that(r, n.bytesInline() == (long) ranks * (TOKEN_SENDS * Integer.BYTES + bytes),
                "bytesInline should be " + ranks + " x (44 + " + bytes + "), got " + n);
    }

    @Test
    void sixtyFourRanks() {
        int bytes = 1024 * 1024;
        JobResult r = JobRunner.job(Ring.class).ranks(64).running(4).args(bytes).timeout(Duration.ofSeconds(120)).run();
        Stats s = checkRing(r, 64, 4, bytes);
        Expect.that(r, s.node0().bytesSpilled() == 64L * bytes && s.node0().spillFiles() == 64,
                "64 hops of 1 MiB, over the default -im, must be spilled: " + s.node0());
    }

    /**
     * Across nodes, an array larger than the masters' data chunk travels as several chunks and a
     * partial one, each written to the receiving node's spill file at its place.
     */
    @ParameterizedTest(name = "-nn {0} -ns {1}, {2} bytes array across nodes")
    @CsvSource({"2,1,20971524", "3,2,8388612"})
    void largeArrayCrossesNodesInChunks(int nodes, int perNode, int bytes) {
        JobResult r = JobRunner.job(Ring.class).nodes(nodes).ranks(perNode).running(1).args(bytes)
                .timeout(Duration.ofSeconds(120)).run();
        Expect.successfulRun(r, nodes, perNode, 1);
        r.assertStdoutHasLine("Ring: " + bytes + " bytes passed around " + nodes * perNode + " ranks: OK");
    }

    /** Output and statistics every ring run must have. */
    private static Stats checkRing(JobResult r, int ranks, int running, int bytes) {
        return checkRing(r, 1, ranks, running, bytes);
    }

    private static Stats checkRing(JobResult r, int nodes, int perNode, int running, int bytes) {
        int ranks = nodes * perNode;
        Stats s = Expect.successfulRun(r, nodes, perNode, running);
        r.assertStdoutHasLine("Process 0 decremented value: 0");
        for (int rank = 0; rank < ranks; rank++) {
            r.assertStdoutHasLine("Process " + rank + " exiting");
        }
        r.assertStdoutHasLine("Ring: " + bytes + " bytes passed around " + ranks + " ranks: OK");
        long messages = (TOKEN_SENDS + 1L) * ranks;
        Expect.that(r, s.total().messages() == messages,
                "the ring sends " + messages + " messages (11 tokens and one array per rank), stats say " + s.total().messages());
        return s;
    }
}
