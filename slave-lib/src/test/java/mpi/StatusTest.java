package mpi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatusTest {

    @Test
    void shouldCountItemsOfAnyType() throws Exception {
        Status s = Status.received(3, 7, 24);
        assertEquals(3, s.getSource());
        assertEquals(7, s.getTag());
        assertEquals(24, s.getCount(MPI.BYTE));
        assertEquals(24, s.getCount(MPI.PACKED));
        assertEquals(24, s.getCount(MPI.BOOLEAN));
        assertEquals(12, s.getCount(MPI.CHAR));
        assertEquals(12, s.getCount(MPI.SHORT));
        assertEquals(6, s.getCount(MPI.INT));
        assertEquals(6, s.getCount(MPI.FLOAT));
        assertEquals(3, s.getCount(MPI.LONG));
        assertEquals(3, s.getCount(MPI.DOUBLE));
        assertEquals(3, s.getElements(MPI.DOUBLE));
        assertEquals(MPI.SUCCESS, s.getError());
        assertEquals(0, s.getIndex());
        assertFalse(s.isCancelled());
    }

    @Test
    void shouldReportUndefinedForPartialItems() throws Exception {
        Status s = Status.received(0, 0, 12);
        assertEquals(3, s.getCount(MPI.INT));
        assertEquals(MPI.UNDEFINED, s.getCount(MPI.LONG));
        assertEquals(MPI.UNDEFINED, s.getElements(MPI.DOUBLE));
        assertEquals(MPI.UNDEFINED, Status.received(0, 0, 5).getCount(MPI.SHORT));
        assertEquals(MPI.UNDEFINED, Status.received(0, 0, 1L << 33).getCount(MPI.BYTE), "more items than an int holds");
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> s.getCount(null)).getErrorClass());
    }

    @Test
    void shouldDescribeSpecialOutcomes() throws Exception {
        Status empty = Status.empty();
        assertEquals(MPI.ANY_SOURCE, empty.getSource());
        assertEquals(MPI.ANY_TAG, empty.getTag());
        assertEquals(0, empty.getCount(MPI.INT));

        Status procNull = Status.procNull();
        assertEquals(MPI.PROC_NULL, procNull.getSource());
        assertEquals(MPI.ANY_TAG, procNull.getTag());
        assertEquals(0, procNull.getCount(MPI.DOUBLE));

        assertTrue(Status.cancelledReceive().isCancelled());

        Status indexed = Status.received(1, 2, 8).withIndex(5).withError(MPI.ERR_TRUNCATE);
        assertEquals(5, indexed.getIndex());
        assertEquals(MPI.ERR_TRUNCATE, indexed.getError());
        assertEquals(2, indexed.getCount(MPI.INT), "copies keep the rest");
    }
}
