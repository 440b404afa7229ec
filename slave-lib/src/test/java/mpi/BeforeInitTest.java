package mpi;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.IntBuffer;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Calls before Init: refused with Open MPI's message, whatever the error handler. */
class BeforeInitTest {

    @BeforeEach
    void notInitialized() {
        Session.reset();
    }

    private static void assertRefused(Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals("MPI is not initialized.", e.getMessage());
        assertEquals(0, e.getErrorClass(), "a Java-side check, not an MPI error");
    }

    @Test
    void shouldRefuseEveryMpiCallBeforeInit() {
        Request[] none = {MPI.REQUEST_NULL};
        assertRefused(() -> MPI.COMM_WORLD.getRank());
        assertRefused(() -> MPI.COMM_WORLD.getSize());
        assertRefused(() -> MPI.COMM_SELF.getRank());
        assertRefused(() -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0));
        assertRefused(() -> MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 0));
        assertRefused(() -> MPI.COMM_WORLD.sendRecv(new int[1], 1, MPI.INT, 0, 0, new int[1], 1, MPI.INT, 0, 0));
        assertRefused(() -> MPI.COMM_WORLD.iSend(IntBuffer.allocate(1), 1, MPI.INT, 0, 0));
        assertRefused(() -> MPI.COMM_WORLD.iRecv(IntBuffer.allocate(1), 1, MPI.INT, 0, 0));
        assertRefused(() -> MPI.COMM_WORLD.probe(0, 0));
        assertRefused(() -> MPI.COMM_WORLD.iProbe(0, 0));
        assertRefused(() -> MPI.COMM_WORLD.barrier());
        assertRefused(() -> MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN));
        assertRefused(() -> MPI.COMM_WORLD.getName());
        assertRefused(() -> MPI.COMM_WORLD.abort(1));
        assertRefused(() -> Comm.compare(MPI.COMM_WORLD, MPI.COMM_SELF));
        assertRefused(() -> MPI.REQUEST_NULL.waitFor());
        assertRefused(() -> MPI.REQUEST_NULL.test());
        assertRefused(() -> Request.waitAll(none));
        assertRefused(() -> Request.testAny(none));
        assertRefused(MPI::wtime);
        assertRefused(MPI::wtick);
        assertRefused(MPI::queryThread);
        assertRefused(MPI::getProcessorName);
        assertRefused(MPI::Finalize);
        assertRefused(() -> MPI.attachBuffer(new byte[1]));
    }

    @Test
    void shouldRefuseCollectivesAndCommunicatorCallsBeforeInit() {
        assertRefused(() -> MPI.COMM_WORLD.bcast(new int[1], 1, MPI.INT, 0));
        assertRefused(() -> MPI.COMM_WORLD.allReduce(new int[1], 1, MPI.INT, MPI.SUM));
        assertRefused(() -> MPI.COMM_WORLD.scan(new int[1], 1, MPI.INT, MPI.SUM));
        assertRefused(() -> MPI.COMM_WORLD.iBarrier());
        assertRefused(() -> MPI.COMM_WORLD.iAllReduce(IntBuffer.allocate(1), 1, MPI.INT, MPI.SUM));
        assertRefused(() -> Comm.reduceLocal(new int[1], new int[1], 1, MPI.INT, MPI.SUM));
        assertRefused(() -> MPI.COMM_WORLD.dup());
        assertRefused(() -> MPI.COMM_WORLD.split(0, 0));
        assertRefused(() -> BDMPI.COMM_NODE.getRank());
        assertRefused(BDMPI::criticalEnter);
        assertRefused(() -> BDMPI.getNodeSize(MPI.COMM_WORLD));
    }

    @Test
    void shouldAnswerStateQueriesBeforeInit() throws Exception {
        assertFalse(MPI.isInitialized());
        assertFalse(MPI.isFinalized());
        assertEquals(3, MPI.getVersion().getVersion());
        assertTrue(MPI.getLibVersion().startsWith("bdmpi-java "), MPI.getLibVersion());
    }

    @Test
    void shouldRefuseGroupInfoAndAttributeCallsBeforeInit() {
        assertRefused(MPI.GROUP_EMPTY::getSize);
        assertRefused(Info::new);
        assertRefused(() -> MPI.INFO_ENV.get("maxprocs"));
        assertRefused(Comm::createKeyval);
        assertRefused(() -> MPI.COMM_WORLD.getAttr(MPI.TAG_UB));
        assertRefused(() -> MPI.INT.getAttr(0));
        assertRefused(() -> new Message().mProbe(0, 0, MPI.COMM_WORLD));
        assertRefused(() -> MPI.COMM_WORLD.sendInit(IntBuffer.allocate(1), 1, MPI.INT, 0, 0));
        assertRefused(MPI::detachBuffer);
    }

    @Test
    void shouldRefuseInitOutsideBdmpiexec() throws Exception {
        MPIException e = assertThrows(MPIException.class, () -> MPI.init(Map.of(), MPI.THREAD_SINGLE));
        assertEquals("not started by bdmpiexec: run the program with bdmpiexec", e.getMessage());
        assertFalse(MPI.isInitialized(), "a failed Init leaves MPI uninitialized");
    }

    @Test
    void shouldReportAnIncompleteEnvironment() {
        MPIException e = assertThrows(MPIException.class, () -> MPI.init(Map.of("BDMPI_SOCKET", "/nowhere"), MPI.THREAD_SINGLE));
        assertTrue(e.getMessage().contains("BDMPI_RANK"), e.getMessage());
    }

    @Test
    void shouldReportAnUnreachableMaster() {
        Map<String, String> env = new java.util.HashMap<>(Map.of("BDMPI_SOCKET", "/nonexistent/master.sock", "BDMPI_RANK", "0",
                "BDMPI_SIZE", "1", "BDMPI_NODE", "0", "BDMPI_NODES", "1", "BDMPI_INLINE_MAX", "100",
                "BDMPI_SPILL_DIR", "/tmp", "BDMPI_MASTER_PID", "1"));
        MPIException e = assertThrows(MPIException.class, () -> MPI.init(env, MPI.THREAD_SINGLE));
        assertEquals(MPI.ERR_OTHER, e.getErrorClass());
        assertTrue(e.getMessage().startsWith("MPI_Init: cannot reach the bdmpi master at /nonexistent/master.sock"),
                e.getMessage());
    }
}
