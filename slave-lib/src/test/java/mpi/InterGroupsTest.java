package mpi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class InterGroupsTest {

    @Test
    void shouldPutTheGroupWithTheLowestWorldRankFirstOnBothSides() throws MPIException {
        InterGroups odd = InterGroups.of("t", new int[] {5, 1, 3}, new int[] {4, 0});
        InterGroups even = InterGroups.of("t", new int[] {4, 0}, new int[] {5, 1, 3});
        assertArrayEquals(new int[] {4, 0, 5, 1, 3}, odd.union());
        assertArrayEquals(odd.union(), even.union(), "both sides agree on the union");
        assertEquals(2, odd.lowGroupSize());
        assertEquals(2, even.lowGroupSize());
        assertEquals(2, odd.localBase(), "local rank i of the odd group is union rank 2 + i");
        assertEquals(0, odd.remoteBase());
        assertEquals(0, even.localBase());
        assertEquals(2, even.remoteBase());
        assertEquals(5, even.size());
        assertEquals(odd.union()[odd.localBase() + 1], odd.local[1], "local rank 1 maps to its world rank");
        assertEquals(even.union()[even.remoteBase() + 2], 3, "remote rank 2 of the even side is world rank 3");
    }

    @Test
    void shouldRefuseOverlappingOrEmptyGroups() {
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class,
                () -> InterGroups.of("t", new int[] {0, 1}, new int[] {1, 2})).getErrorClass());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class,
                () -> InterGroups.of("t", new int[] {0}, new int[0])).getErrorClass());
    }
}
