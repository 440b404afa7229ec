package io.bdmpi.tests.io;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.io.FileTraffic;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Random MPI-IO traffic on one file by every rank ({@link FileTraffic}): every way of writing
 * (explicit offsets, individual and shared pointers, ordered, nonblocking, split collectives,
 * strided views) and of reading back, every byte checked by the ranks against a model of the file
 * drawn from the shared seed; one node and two (over MPICH).
 */
class FileTrafficTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, seed {3}")
    @CsvSource({"1,4,2,1", "1,3,1,2", "2,2,1,3"})
    void everyRankReadsWhatTheOthersWrote(int nodes, int perNode, int running, long seed) throws IOException {
        int rounds = 20;
        JobRunner job = JobRunner.job(FileTraffic.class).nodes(nodes).ranks(perNode).running(running)
                .args(dir.toString(), rounds, seed);
        if (nodes > 1) {
            job.mpi(MpiAbi.MPICH);
        }
        JobResult r = job.run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "FileTraffic", nodes * perNode);
        try (Stream<Path> files = Files.list(dir)) {
            Expect.that(r, files.map(p -> p.getFileName().toString()).sorted().toList().equals(List.of("traffic")),
                    "files left in " + dir);
        }
    }
}
