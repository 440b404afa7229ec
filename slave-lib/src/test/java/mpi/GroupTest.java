package mpi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Groups and Comm.create against a stand-in master; this slave is COMM_WORLD rank 1 of 4. */
class GroupTest extends WithMaster {

    private static int[] ranks(Group g) throws MPIException {
        int n = g.getSize();
        int[] in = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = i;
        }
        Group world = MPI.COMM_WORLD.getGroup();
        return Group.translateRanks(g, in, world);
    }

    @Test
    void shouldKnowTheWorldAndSelfGroups() throws Exception {
        Group world = MPI.COMM_WORLD.getGroup();
        assertEquals(4, world.getSize());
        assertEquals(1, world.getRank());
        Group self = MPI.COMM_SELF.getGroup();
        assertEquals(1, self.getSize());
        assertEquals(0, self.getRank());
        assertArrayEquals(new int[] {1}, ranks(self));
        assertEquals(0, MPI.GROUP_EMPTY.getSize());
        assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.getRank());
        assertTrue(requests().isEmpty(), "local calls: nothing asked of the master");
    }

    @Test
    void shouldSelectAndExcludeRanks() throws Exception {
        Group world = MPI.COMM_WORLD.getGroup();
        Group g = world.incl(new int[] {3, 1});
        assertArrayEquals(new int[] {3, 1}, ranks(g));
        assertEquals(1, g.getRank());
        assertArrayEquals(new int[] {0, 2}, ranks(world.excl(new int[] {3, 1})));
        assertEquals(0, world.incl(new int[0]).getSize());
        assertArrayEquals(new int[] {0, 2, 3, 1}, ranks(world.rangeIncl(new int[][] {{0, 3, 2}, {3, 1, -2}})));
        assertArrayEquals(new int[] {1, 3}, ranks(world.rangeExcl(new int[][] {{0, 2, 2}})));
        assertError(MPI.ERR_RANK, () -> world.incl(new int[] {1, 1}));
        assertError(MPI.ERR_RANK, () -> world.excl(new int[] {4}));
        assertError(MPI.ERR_ARG, () -> world.rangeIncl(new int[][] {{0, 3, 0}}));
        assertError(MPI.ERR_ARG, () -> world.rangeIncl(new int[][] {{3, 0, 1}}));
    }

    @Test
    void shouldCombineGroupsInMpisOrder() throws Exception {
        Group world = MPI.COMM_WORLD.getGroup();
        Group a = world.incl(new int[] {2, 0, 1});
        Group b = world.incl(new int[] {3, 1, 2});
        assertArrayEquals(new int[] {2, 0, 1, 3}, ranks(Group.union(a, b)));
        assertArrayEquals(new int[] {2, 1}, ranks(Group.intersection(a, b)));
        assertArrayEquals(new int[] {0}, ranks(Group.difference(a, b)));
        assertEquals(MPI.IDENT, Group.compare(Group.difference(a, a), MPI.GROUP_EMPTY));
        assertEquals(MPI.IDENT, Group.compare(a, world.incl(new int[] {2, 0, 1})));
        assertEquals(MPI.SIMILAR, Group.compare(a, world.incl(new int[] {0, 1, 2})));
        assertEquals(MPI.UNEQUAL, Group.compare(a, b));
        assertArrayEquals(new int[] {MPI.UNDEFINED, 1, MPI.PROC_NULL, 2},
                Group.translateRanks(a, new int[] {1, 2, MPI.PROC_NULL, 0}, b));
        assertError(MPI.ERR_RANK, () -> Group.translateRanks(a, new int[] {3}, b));
    }

    @Test
    void shouldRefuseAFreedGroup() throws Exception {
        Group g = MPI.COMM_WORLD.getGroup();
        g.free();
        assertTrue(g.isNull());
        assertError(MPI.ERR_GROUP, g::getSize);
        assertError(MPI.ERR_GROUP, () -> Group.union(g, MPI.GROUP_EMPTY));
    }

    @Test
    void shouldCreateACommunicatorAsASplitOfTheParent() throws Exception {
        Group world = MPI.COMM_WORLD.getGroup();
        Group reversed = world.incl(new int[] {3, 2, 1});
        master.splitAs(rank -> rank == 0 ? new int[] {-32766, 0} : new int[] {1, 3 - rank});
        Intracomm c = MPI.COMM_WORLD.create(reversed);
        assertEquals(1, requests(io.bdmpi.protocol.SlaveRequest.StartSplit.class).get(0).color(),
                "colour: the group's lowest world rank");
        assertEquals(2, c.getRank());
        assertEquals(3, c.getSize());
        assertEquals(MPI.IDENT, Group.compare(c.getGroup(), reversed), "the members are known: no gather");
        assertTrue(requests(io.bdmpi.protocol.SlaveRequest.StartCollective.class).isEmpty());

        Intracomm none = MPI.COMM_WORLD.create(world.incl(new int[] {0, 2}));
        assertTrue(none.isNull(), "not in the group");
        assertError(MPI.ERR_GROUP, () -> c.create(world));
    }

    @Test
    void theMasterNamesTheMembersOfASplit() throws Exception {
        master.splitAs(rank -> new int[] {0, -rank});
        Intracomm reversed = MPI.COMM_WORLD.split(0, -FakeMaster.RANK);
        assertArrayEquals(new int[] {3, 2, 1, 0}, ranks(reversed.getGroup()));
        master.splitAs(null); // a dup: every member keeps its rank
        Intracomm dup = reversed.dup();
        assertArrayEquals(new int[] {3, 2, 1, 0}, ranks(dup.getGroup()));
        assertEquals(0, requests(io.bdmpi.protocol.SlaveRequest.StartCollective.class).size(),
                "no gather: the split's answer names the members, and the dup knows them");
    }

    @Test
    void shouldRefuseTheGroupOfBdmpisCommunicatorsButNotOfTheirDups() throws Exception {
        assertError(MPI.ERR_UNSUPPORTED_OPERATION, BDMPI.COMM_NODE::getGroup);
        Intracomm node = BDMPI.COMM_NODE.dup();
        assertArrayEquals(new int[] {0, 1}, ranks(node.getGroup()));
    }

    @Test
    void shouldCreateACommunicatorOverTheGroupInACallOfItsMembersOnly() throws Exception {
        Group g = MPI.COMM_WORLD.getGroup().incl(new int[] {3, 1});
        Intracomm c = MPI.COMM_WORLD.createGroup(g, 4);
        io.bdmpi.protocol.SlaveRequest.StartGroupComm start = requests(io.bdmpi.protocol.SlaveRequest.StartGroupComm.class).get(0);
        assertArrayEquals(new int[] {3, 1}, start.members());
        assertEquals(List.of(0, 4), List.of(start.lowGroupSize(), start.tag()));
        assertEquals(List.of(1, 2), List.of(c.getRank(), c.getSize()), "COMM_WORLD rank 1 is second in the group");
        assertArrayEquals(new int[] {3, 1}, ranks(c.getGroup()));
        assertError(MPI.ERR_GROUP, () -> MPI.COMM_WORLD.createGroup(MPI.COMM_WORLD.getGroup().incl(new int[] {0, 2}), 4));
        assertError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.createGroup(g, -1));
    }
}
