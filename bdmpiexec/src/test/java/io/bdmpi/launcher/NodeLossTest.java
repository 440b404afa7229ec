package io.bdmpi.launcher;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The lost node as the side channel declares it, or as Open MPI's mpiexec reports a killed master. */
class NodeLossTest {

    @Test
    void theSideChannelNamesTheNodeAndItsHost() {
        assertEquals(new NodeLoss(1, "its master on vm is gone (its master's connection closed without a goodbye)"),
                NodeLoss.of(new LostNode(1, "vm", 101, "is gone (its master's connection closed without a goodbye)")));
    }

    @Test
    void openMpiNamesTheRank() {
        List<String> lines = List.of("mpiexec.openmpi noticed that process rank 2 with PID 0 on node vm exited on signal 9 (Killed).");
        assertEquals(Optional.of(new NodeLoss(2, "its master on vm was killed by signal 9")), NodeLoss.find(lines));
    }

    /** Hydra's report names whichever process it reaped: no node is read from it. */
    @Test
    void hydrasReportNamesNoNode() {
        assertEquals(Optional.empty(), NodeLoss.find(List.of("YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)")));
    }

    @Test
    void aFailedJobWithoutADeadMasterLosesNoNode() {
        assertEquals(Optional.empty(), NodeLoss.find(List.of("bdmpiexec: job failed: rank 4 (pid 7) was killed by signal 9")));
    }
}
