package io.bdmpi.launcher;

import io.bdmpi.master.checkpoint.MasterRoster;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** mpiexec's reports of a killed master, as MPICH and Open MPI print them here, read into the lost node. */
class NodeLossTest {

    /** Hydra names the pid of rank 0, which it killed itself after rank 1 died: the roster's order of deaths decides. */
    private static final List<String> HYDRA = List.of(
            "===================================================================================",
            "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES",
            "=   PID 100 RUNNING AT vm",
            "=   EXIT CODE: 9",
            "=   CLEANING UP REMAINING PROCESSES",
            "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)");
    private static final List<MasterRoster.Entry> THREE = List.of(new MasterRoster.Entry(0, 100, "vm"),
            new MasterRoster.Entry(1, 101, "vm"), new MasterRoster.Entry(2, 102, "vm"));

    @Test
    void hydraReportsTheFirstMasterToDie() {
        assertEquals(Optional.of(new NodeLoss(1, "its master (pid 101 on vm) was killed by signal 9")),
                NodeLoss.find(HYDRA, new MasterRoster.Masters(THREE, List.of(1, 0, 2))));
    }

    @Test
    void aMasterThatNeverRecordedItsDeathWentWithItsMachine() {
        assertEquals(2, NodeLoss.find(HYDRA, new MasterRoster.Masters(THREE, List.of(1, 0))).orElseThrow().node());
    }

    @Test
    void openMpiNamesTheRank() {
        List<String> lines = List.of("mpiexec.openmpi noticed that process rank 2 with PID 0 on node vm exited on signal 9 (Killed).");
        assertEquals(Optional.of(new NodeLoss(2, "its master on vm was killed by signal 9")),
                NodeLoss.find(lines, new MasterRoster.Masters(List.of(), List.of())));
    }

    @Test
    void aFailedJobWithoutADeadMasterLosesNoNode() {
        assertEquals(Optional.empty(), NodeLoss.find(List.of("bdmpiexec: job failed: rank 4 (pid 7) was killed by signal 9"),
                new MasterRoster.Masters(THREE, List.of(0, 1, 2))));
    }
}
