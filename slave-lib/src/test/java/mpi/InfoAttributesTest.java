package mpi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Info, keyvals and attributes, names and the environment, against a stand-in master (4 ranks). */
class InfoAttributesTest extends WithMaster {

    @Test
    void shouldKeepHintsInTheOrderSet() throws Exception {
        Info info = new Info();
        info.set("b", "2");
        info.set("a", "1");
        info.set("b", "3");
        assertEquals(2, info.size());
        assertEquals("b", info.getKey(0));
        assertEquals("3", info.get("b"));
        assertNull(info.get("zz"));
        Info copy = info.dup();
        info.delete("b");
        assertEquals(1, info.size());
        assertEquals("3", copy.get("b"), "a dup is independent");
        assertError(MPI.ERR_INFO_NOKEY, () -> info.delete("b"));
        assertError(MPI.ERR_INFO_KEY, () -> info.set("k".repeat(MPI.MAX_INFO_KEY), "v"));
        assertError(MPI.ERR_INFO_VALUE, () -> info.set("k", ""));
        assertError(MPI.ERR_ARG, () -> info.getKey(-1));
        assertError(MPI.ERR_INFO_KEY, () -> info.getKey(1));
        info.free();
        assertTrue(info.isNull());
        assertError(MPI.ERR_INFO, info::size);
    }

    @Test
    void shouldDescribeTheLaunchInInfoEnvAndRefuseToChangeIt() throws Exception {
        assertTrue(MPI.INFO_NULL.isNull());
        assertFalse(MPI.INFO_ENV.isNull());
        assertEquals("4", MPI.INFO_ENV.get("maxprocs"));
        assertEquals("MPI_THREAD_SINGLE", MPI.INFO_ENV.get("thread_level"));
        assertError(MPI.ERR_INFO, () -> MPI.INFO_ENV.set("x", "y"));
        assertError(MPI.ERR_INFO, MPI.INFO_ENV::free);
        assertError(MPI.ERR_INFO, () -> MPI.INFO_NULL.get("x"));
    }

    @Test
    void shouldKeepCommunicatorHintsAndPassThemToDups() throws Exception {
        Info info = new Info();
        info.set("mpi_assert_no_any_tag", "true");
        MPI.COMM_SELF.setInfo(info);
        Info got = MPI.COMM_SELF.getInfo();
        assertEquals("true", got.get("mpi_assert_no_any_tag"));
        assertEquals("true", MPI.COMM_SELF.dup().getInfo().get("mpi_assert_no_any_tag"));
        assertEquals(0, MPI.COMM_SELF.dupWithInfo(MPI.INFO_NULL).getInfo().size());
        Intracomm d = MPI.COMM_SELF.iDup();
        d.getRequest().waitFor();
        assertEquals(1, d.getSize());
        assertTrue(MPI.COMM_WORLD.getRequest().isNull());
    }

    @Test
    void shouldGivePredefinedAttributesAsOpenMpiDoes() throws Exception {
        assertEquals(MPI.TAG_UB_VALUE, MPI.COMM_WORLD.getAttr(MPI.TAG_UB));
        assertTrue((Integer) MPI.COMM_WORLD.getAttr(MPI.TAG_UB) >= 32767);
        assertEquals(MPI.PROC_NULL, MPI.COMM_WORLD.getAttr(MPI.HOST));
        assertEquals(MPI.ANY_SOURCE, MPI.COMM_WORLD.getAttr(MPI.IO));
        assertEquals(Boolean.FALSE, MPI.COMM_WORLD.getAttr(MPI.WTIME_IS_GLOBAL));
        assertEquals(0, MPI.COMM_WORLD.getAttr(MPI.APPNUM));
        assertEquals(MPI.ERR_LASTCODE, MPI.COMM_WORLD.getAttr(MPI.LASTUSEDCODE));
        assertEquals(4, MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE));
        Intracomm dup = MPI.COMM_WORLD.dup();
        assertEquals(MPI.TAG_UB_VALUE, dup.getAttr(MPI.TAG_UB));
        assertNull(dup.getAttr(MPI.LASTUSEDCODE), "not copied by dup, as in Open MPI");
        assertNull(MPI.COMM_SELF.getAttr(MPI.TAG_UB), "cached on COMM_WORLD only");
        assertError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.setAttr(MPI.TAG_UB, 5));
        assertError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(MPI.TAG_UB));
    }

    @Test
    void shouldCacheCopiesOfUserAttributesAndCopyThemOnDup() throws Exception {
        int key = Comm.createKeyval();
        assertNull(MPI.COMM_SELF.getAttr(key));
        List<String> value = new ArrayList<>(List.of("a"));
        MPI.COMM_SELF.setAttr(key, value);
        value.add("b");
        Object got = MPI.COMM_SELF.getAttr(key);
        assertEquals(List.of("a"), got, "serialized when set");
        assertNotSame(got, MPI.COMM_SELF.getAttr(key), "a fresh copy on every get");
        Intracomm dup = MPI.COMM_SELF.dup();
        assertEquals(List.of("a"), dup.getAttr(key));
        MPI.COMM_SELF.deleteAttr(key);
        assertNull(MPI.COMM_SELF.getAttr(key));
        assertEquals(List.of("a"), dup.getAttr(key));
        assertError(MPI.ERR_ARG, () -> MPI.COMM_SELF.setAttr(key, new Object()));
        assertError(MPI.ERR_KEYVAL, () -> MPI.INT.setAttr(key, 1)); // a communicator keyval on a datatype
        Comm.freeKeyval(key);
        assertError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(key));
        assertNull(MPI.COMM_SELF.getAttr(key), "deleted before the free");
        assertEquals(List.of("a"), dup.getAttr(key), "cached before the free: still there, as in MPI");
        assertEquals(List.of("a"), dup.dup().getAttr(key), "and copied by a dup");
        MPIException set = assertError(MPI.ERR_KEYVAL, () -> dup.setAttr(key, "new"));
        assertTrue(set.getMessage().contains("freed"), set.getMessage());
        dup.deleteAttr(key);
        assertNull(dup.getAttr(key));
    }

    @Test
    void shouldCacheAttributesOnDatatypes() throws Exception {
        int key = Datatype.createKeyval();
        MPI.DOUBLE.setAttr(key, "unit: metres");
        assertEquals("unit: metres", MPI.DOUBLE.getAttr(key));
        assertNull(MPI.INT.getAttr(key));
        MPI.DOUBLE.deleteAttr(key);
        assertNull(MPI.DOUBLE.getAttr(key));
        assertError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.getAttr(key)); // a datatype keyval on a communicator
        assertError(MPI.ERR_KEYVAL, () -> MPI.INT.getAttr(MPI.TAG_UB));
        Datatype.freeKeyval(key);
    }

    @Test
    void shouldNameCommunicatorsAndCutLongNames() throws Exception {
        assertEquals("MPI_COMM_WORLD", MPI.COMM_WORLD.getName());
        assertEquals("MPI_COMM_SELF", MPI.COMM_SELF.getName());
        Intracomm d = MPI.COMM_SELF.dup();
        d.setName("x".repeat(100));
        assertEquals(MPI.MAX_OBJECT_NAME - 1, d.getName().length());
        d.barrier(); // a round trip after the one-way naming: the master has read it
        assertEquals(d.getName(), master.commName(d.commId), "the name the master's reports use");
    }

    @Test
    void shouldReportNoTopologyAndCallTheErrorHandler() throws Exception {
        assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
        MPI.COMM_WORLD.callErrhandler(MPI.ERR_OTHER); // ERRORS_RETURN: nothing happens, nothing is thrown
    }

    @Test
    void shouldSplitByNode() throws Exception {
        master.splitAs(rank -> new int[] {rank / FakeMaster.PER_NODE, rank});
        Info hints = new Info();
        hints.set("k", "v");
        Intracomm node = MPI.COMM_WORLD.splitType(Comm.TYPE_SHARED, 0, hints);
        assertEquals(0, requests(io.bdmpi.protocol.SlaveRequest.StartSplit.class).get(0).color(), "node 0");
        assertEquals("v", node.getInfo().get("k"));
        assertTrue(MPI.COMM_WORLD.splitType(MPI.UNDEFINED, 0, MPI.INFO_NULL).isNull());
        assertError(MPI.ERR_UNSUPPORTED_OPERATION, () -> MPI.COMM_WORLD.splitType(3, 0, MPI.INFO_NULL));
        assertError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.splitType(99, 0, MPI.INFO_NULL));
    }

    @Test
    void shouldNameTheLibraryAndTheStandard() {
        assertEquals(3, MPI.getVersion().getVersion());
        assertEquals(1, MPI.getVersion().getSubVersion());
        assertEquals(MPI.VERSION, MPI.getVersion().getVersion());
        assertEquals(MPI.SUBVERSION, MPI.getVersion().getSubVersion());
        assertTrue(MPI.getLibVersion().startsWith("bdmpi-java "), MPI.getLibVersion());
        assertFalse(MPI.getLibVersion().contains("unknown"), "the build writes the project version: " + MPI.getLibVersion());
    }
}
