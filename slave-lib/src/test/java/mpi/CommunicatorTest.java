package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;
import mpi.FakeMaster.Contribution;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * dup, split, free and compare, and the BDMPI extensions, against a stand-in master: this slave
 * is world rank 1 of 4, on node 0 with rank 0 (ranks 2 and 3 are on node 1).
 */
class CommunicatorTest extends WithMaster {

    // ---------------------------------------------------------------- dup and split

    @Test
    void shouldDupAsASplitThatKeepsTheRanks() throws Exception {
        Intracomm copy = MPI.COMM_WORLD.dup();
        SlaveRequest.StartSplit s = requests(SlaveRequest.StartSplit.class).get(0);
        assertEquals(Protocol.COMM_WORLD_ID, s.commId());
        assertEquals(Protocol.DUP_COLOR, s.color(), "the colour reports call MPI_Comm_dup");
        assertEquals(FakeMaster.RANK, s.key());
        assertEquals(FakeMaster.RANK, copy.getRank());
        assertEquals(FakeMaster.SIZE, copy.getSize());
        assertFalse(copy.isNull());
        assertSame(MPI.ERRORS_RETURN, copy.getErrhandler(), "inherited");
        assertEquals("MPI COMMUNICATOR 16 DUP FROM MPI_COMM_WORLD", copy.getName());
        assertEquals(1, requests(SlaveRequest.StartSplit.class).size(), "rank and size are known from the split");

        Intracomm cloned = copy.clone();
        assertNotSame(copy, cloned);
        assertEquals(17, cloned.commId);
    }

    @Test
    void shouldSplitByColourAndKey() throws Exception {
        // Even and odd world ranks, in reverse order of rank.
        master.splitAs(rank -> new int[] {rank % 2, -rank});
        Intracomm odd = MPI.COMM_WORLD.split(1, -1);
        assertEquals(2, odd.getSize());
        assertEquals(1, odd.getRank(), "world rank 3 comes first");
        assertArrayEquals(new int[] {3, 1}, master.members(odd.commId));

        Intracomm none = MPI.COMM_WORLD.split(MPI.UNDEFINED, 0);
        assertTrue(none.isNull());
        assertEquals(Protocol.UNDEFINED_COLOR, requests(SlaveRequest.StartSplit.class).get(1).color());
        assertError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.split(-5, 0));
        assertEquals(2, requests(SlaveRequest.StartSplit.class).size());
    }

    @Test
    void shouldRefuseEveryCallOnANullCommunicator() throws Exception {
        Intracomm none = MPI.COMM_WORLD.split(MPI.UNDEFINED, 0);
        master.clearRequests();
        assertError(MPI.ERR_COMM, none::getRank);
        assertError(MPI.ERR_COMM, none::barrier);
        assertError(MPI.ERR_COMM, () -> none.send(new int[1], 1, MPI.INT, 0, 0));
        assertError(MPI.ERR_COMM, () -> none.allReduce(new int[1], 1, MPI.INT, MPI.SUM));
        assertError(MPI.ERR_COMM, none::free);
        assertError(MPI.ERR_COMM, none::dup);
        assertError(MPI.ERR_COMM, () -> Comm.compare(none, MPI.COMM_WORLD));
        assertError(MPI.ERR_COMM, () -> BDMPI.getNodeSize(none));
        assertTrue(requests().isEmpty());
        assertEquals("MPI_Barrier: null communicator (from a split with MPI.UNDEFINED)",
                assertThrows(MPIException.class, none::barrier).getMessage());
    }

    @Test
    void shouldTalkOnADerivedCommunicatorWithItsRanks() throws Exception {
        master.splitAs(rank -> new int[] {0, -rank});
        Intracomm reversed = MPI.COMM_WORLD.split(0, -FakeMaster.RANK);
        assertEquals(2, reversed.getRank());
        reversed.send(new int[] {77}, 1, MPI.INT, 2, 5);
        int[] in = new int[1];
        Status s = reversed.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, 5);
        assertEquals(77, in[0]);
        assertEquals(2, s.getSource(), "the sender's rank in this communicator");
        assertEquals(reversed.commId, requests(SlaveRequest.Send.class).get(0).commId());
        assertError(MPI.ERR_RANK, () -> reversed.send(new int[1], 1, MPI.INT, 4, 0));

        master.contribute((rank, mine) -> new Contribution(bytesOf(10 + rank)));
        int[] all = new int[4];
        reversed.allGather(new int[] {12}, 1, MPI.INT, all, 1, MPI.INT);
        assertArrayEquals(new int[] {10, 11, 12, 13}, all);
        assertEquals(reversed.commId, requests(SlaveRequest.StartCollective.class).get(0).commId());
    }

    // ---------------------------------------------------------------- free

    @Test
    void shouldFreeCollectivelyAndBecomeNull() throws Exception {
        Intracomm copy = MPI.COMM_WORLD.dup();
        int id = copy.commId;
        copy.free();
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.FREE, s.kind());
        assertEquals(id, s.commId());
        assertTrue(copy.isNull());
        assertNull(master.members(id), "gone at the master");
        assertEquals("MPI_Comm_rank: null communicator (freed)",
                assertThrows(MPIException.class, copy::getRank).getMessage());
        assertError(MPI.ERR_COMM, copy::free);
        assertError(MPI.ERR_COMM, MPI.COMM_SELF::free);
        assertError(MPI.ERR_COMM, BDMPI.COMM_NODE::free);
        assertEquals(1, requests(SlaveRequest.StartCollective.class).size());
    }

    // ---------------------------------------------------------------- compare

    @Test
    void shouldCompareByTheGroupsTheMasterReports() throws Exception {
        assertEquals(MPI.IDENT, Comm.compare(MPI.COMM_WORLD, MPI.COMM_WORLD));
        assertTrue(requests().isEmpty(), "the same communicator needs no master");
        Intracomm copy = MPI.COMM_WORLD.dup();
        assertEquals(MPI.CONGRUENT, Comm.compare(MPI.COMM_WORLD, copy));
        assertEquals(MPI.SIMILAR, Comm.compare(MPI.COMM_WORLD, BDMPI.COMM_CWORLD));
        assertEquals(MPI.UNEQUAL, Comm.compare(MPI.COMM_WORLD, BDMPI.COMM_NODE));
        assertEquals(MPI.UNEQUAL, Comm.compare(MPI.COMM_SELF, BDMPI.COMM_NODE));
        assertError(MPI.ERR_COMM, () -> Comm.compare(null, MPI.COMM_WORLD));
    }

    // ---------------------------------------------------------------- BDMPI

    @Test
    void shouldNumberTheExtraCommunicatorsAsTheMasterSays() throws Exception {
        assertEquals(2, BDMPI.COMM_CWORLD.getRank(), "world rank 1 is the second rank of node 0, cyclically 2");
        assertEquals(4, BDMPI.COMM_CWORLD.getSize());
        assertEquals(1, BDMPI.COMM_NODE.getRank());
        assertEquals(2, BDMPI.COMM_NODE.getSize());
        assertEquals("BDMPI_COMM_CWORLD", BDMPI.COMM_CWORLD.getName());
        assertEquals(2, requests(SlaveRequest.QueryComm.class).size(), "asked once per communicator");
    }

    @Test
    void shouldTellWhereTheRanksLive() throws Exception {
        Comm w = MPI.COMM_WORLD;
        assertEquals(2, BDMPI.getNodeSize(w));
        assertEquals(0, BDMPI.getNodeRank(w));
        assertEquals(2, BDMPI.getLocalSize(w));
        assertEquals(1, BDMPI.getLocalRank(w));
        assertEquals(0, BDMPI.getLocalRoot(w));
        List<SlaveRequest.QueryComm> queries = requests(SlaveRequest.QueryComm.class);
        assertEquals(1, queries.size(), "membership never changes: asked once");
        assertEquals(Protocol.COMM_WORLD_ID, queries.get(0).commId());

        assertEquals(0, BDMPI.getLocalRoot(BDMPI.COMM_CWORLD), "world rank 0 is cyclic rank 0");
        assertEquals(1, BDMPI.getLocalRank(BDMPI.COMM_CWORLD));
        assertEquals(1, BDMPI.getNodeSize(BDMPI.COMM_NODE));
        assertEquals(1, BDMPI.getNodeSize(MPI.COMM_SELF));

        master.splitAs(rank -> new int[] {rank >= 2 ? 0 : 1, rank});
        Intracomm mixed = MPI.COMM_WORLD.split(0, 9); // world ranks 2, 3, 1
        assertEquals(2, mixed.getRank());
        assertEquals(2, BDMPI.getNodeSize(mixed));
        assertEquals(0, BDMPI.getNodeRank(mixed), "node 0 comes first, even if its ranks come last");
        assertEquals(1, BDMPI.getLocalSize(mixed));
        assertEquals(2, BDMPI.getLocalRoot(mixed));
    }

    @Test
    void shouldEnterAndLeaveTheNodesCriticalSection() throws Exception {
        BDMPI.criticalEnter();
        BDMPI.criticalExit();
        List<SlaveRequest> r = requests();
        assertInstanceOf(SlaveRequest.CriticalEnter.class, r.get(0));
        assertInstanceOf(SlaveRequest.CriticalExit.class, r.get(1));
    }
}
