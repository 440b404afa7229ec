package mpi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class DatatypeTest {

    @Test
    void shouldCountInBaseUnits() throws Exception {
        Datatype[] all = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE, MPI.PACKED};
        int[] bytes = {1, 2, 2, 1, 4, 8, 4, 8, 1};
        String[] names = {"MPI_BYTE", "MPI_CHAR", "MPI_SHORT", "MPI_BOOLEAN", "MPI_INT", "MPI_LONG", "MPI_FLOAT", "MPI_DOUBLE",
            "MPI_PACKED"};
        for (int i = 0; i < all.length; i++) {
            Datatype t = all[i];
            assertEquals(1, t.getExtent(), names[i]);
            assertEquals(1, t.getSize(), names[i]);
            assertEquals(0, t.getLb(), names[i]);
            assertEquals(1, t.getTrueExtent(), names[i]);
            assertEquals(0, t.getTrueLb(), names[i]);
            assertEquals(bytes[i], t.byteSize(), names[i]);
            assertEquals(names[i], t.getName());
            assertFalse(t.isNull());
            t.commit();
            t.free();
        }
        assertEquals(MPI.BYTE.base, MPI.PACKED.base, "PACKED is bytes");
    }
}
