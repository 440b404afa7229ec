package mpi;

import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Init, Finalize and the calls around them, against a stand-in master. */
class LifecycleTest extends WithMaster {

    @Test
    void shouldRefuseASecondInit() throws Exception {
        assertTrue(MPI.isInitialized());
        assertFalse(MPI.isFinalized());
        assertEquals("MPI is already initialized.",
                assertThrows(MPIException.class, () -> MPI.Init(new String[0])).getMessage());
        assertEquals("MPI is already initialized.",
                assertThrows(MPIException.class, () -> MPI.InitThread(new String[0], MPI.THREAD_SINGLE)).getMessage());
    }

    @Test
    void shouldFinalizeOnceAndThenRefuseEveryCall() throws Exception {
        MPI.Finalize();
        assertEquals(1, master.requests(SlaveRequest.Finalize.class).size(), "the master is told (and has answered)");
        assertTrue(MPI.isInitialized(), "initialized stays true, as MPI_Initialized");
        assertTrue(MPI.isFinalized());
        for (org.junit.jupiter.api.function.Executable call : new org.junit.jupiter.api.function.Executable[] {
            () -> MPI.COMM_WORLD.getRank(), () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0), MPI::Finalize,
            MPI::wtime, () -> MPI.REQUEST_NULL.waitFor()}) {
            assertEquals("MPI is finalized.", assertThrows(MPIException.class, call).getMessage());
        }
        assertEquals("MPI is already initialized.",
                assertThrows(MPIException.class, () -> MPI.Init(new String[0])).getMessage(), "MPI cannot start twice");
    }

    @Test
    void shouldKnowRankSizeAndNames() throws Exception {
        assertEquals(FakeMaster.RANK, MPI.COMM_WORLD.getRank());
        assertEquals(FakeMaster.SIZE, MPI.COMM_WORLD.getSize());
        assertEquals(0, MPI.COMM_SELF.getRank());
        assertEquals(1, MPI.COMM_SELF.getSize());
        assertEquals("MPI_COMM_WORLD", MPI.COMM_WORLD.getName());
        assertEquals("MPI_COMM_SELF", MPI.COMM_SELF.getName());
        assertEquals(MPI.IDENT, Comm.compare(MPI.COMM_WORLD, MPI.COMM_WORLD));
        assertEquals(MPI.UNEQUAL, Comm.compare(MPI.COMM_WORLD, MPI.COMM_SELF));
        assertFalse(MPI.COMM_WORLD.isNull());
        assertFalse(MPI.COMM_WORLD.isInter());
    }

    @Test
    void shouldProvideAtMostSerializedThreads() throws Exception {
        assertEquals(MPI.THREAD_SINGLE, MPI.queryThread(), "Init asks for THREAD_SINGLE");
        assertTrue(MPI.isThreadMain());
        boolean[] otherIsMain = {true};
        Thread t = new Thread(() -> {
            try {
                otherIsMain[0] = MPI.isThreadMain();
            } catch (MPIException e) {
                throw new AssertionError(e);
            }
        });
        t.start();
        t.join();
        assertFalse(otherIsMain[0]);

        for (int required : new int[] {MPI.THREAD_SINGLE, MPI.THREAD_FUNNELED, MPI.THREAD_SERIALIZED, MPI.THREAD_MULTIPLE}) {
            endMpi();
            master = new FakeMaster(java.nio.file.Files.createDirectory(dir.resolve("level" + required)), INLINE_MAX);
            int provided = MPI.init(master.variables(), required);
            assertEquals(Math.min(required, MPI.THREAD_SERIALIZED), provided, "required " + required);
            assertEquals(provided, MPI.queryThread());
            assertEquals(new String[] {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                "MPI_THREAD_MULTIPLE"}[required], MPI.INFO_ENV.get("thread_level"), "INFO_ENV says what was required");
        }
    }

    @Test
    void shouldTellTimeAndHost() throws Exception {
        double t0 = MPI.wtime();
        Thread.sleep(20);
        double t1 = MPI.wtime();
        assertTrue(t1 - t0 >= 0.019 && t1 - t0 < 5, "wtime measures seconds: " + (t1 - t0));
        assertTrue(MPI.wtick() > 0 && MPI.wtick() < 1e-3);
        assertFalse(MPI.getProcessorName().isBlank());
    }

    @Test
    void shouldAttachOneBufferAtATimeAndReturnIt() throws Exception {
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, MPI::detachBuffer).getErrorClass(),
                "nothing attached");
        byte[] b = new byte[100 + MPI.BSEND_OVERHEAD];
        MPI.attachBuffer(b);
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, () -> MPI.attachBuffer(new byte[10])).getErrorClass(),
                "one at a time");
        assertSame(b, MPI.detachBuffer());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, () -> MPI.attachBuffer(null)).getErrorClass());
    }

    @Test
    void shouldDefaultToFatalErrorsAndKeepTheHandlerSet() throws Exception {
        Intracomm fresh = new Intracomm(0, "fresh");
        assertSame(MPI.ERRORS_ARE_FATAL, fresh.getErrhandler());
        fresh.setErrhandler(MPI.ERRORS_RETURN);
        assertSame(MPI.ERRORS_RETURN, fresh.getErrhandler());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class, () -> fresh.setErrhandler(null)).getErrorClass());
    }

    @Test
    void shouldRefuseToFreeAPredefinedCommunicator() throws Exception {
        MPIException e = assertThrows(MPIException.class, MPI.COMM_WORLD::free);
        assertEquals(MPI.ERR_COMM, e.getErrorClass());
        assertFalse(MPI.COMM_WORLD.isNull());
    }

    @Test
    void shouldRecordTheCallInProgressForCrashReports() throws Exception {
        MPI.COMM_WORLD.barrier();
        assertEquals("MPI_Barrier", Session.connection().lastCall());
        MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
        assertEquals("MPI_Iprobe", Session.connection().lastCall());
        Request.waitAll(new Request[] {MPI.REQUEST_NULL});
        assertEquals("MPI_Waitall", Session.connection().lastCall());
    }
}
