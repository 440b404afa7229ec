package io.bdmpi.protocol;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtocolTest {

    @Test
    void shouldGiveEachDupCallAColourOfItsOwnThatNoProgramSplitCanGive() {
        List<String> calls = List.of("MPI_Comm_dup", "MPI_Win_create", "MPI_Win_allocate", "MPI_Win_allocate_shared",
                "MPI_Win_create_dynamic", "MPI_File_open");
        Set<Integer> colours = new HashSet<>();
        for (String call : calls) {
            int colour = Protocol.dupColor(call);
            assertTrue(colour < 0 && colour != Protocol.UNDEFINED_COLOR, call + ": " + colour);
            assertTrue(colours.add(colour), call + " shares colour " + colour);
            assertEquals(call, Protocol.dupCall(colour));
        }
        assertEquals(Protocol.DUP_COLOR, Protocol.dupColor("MPI_Comm_dup"));
        assertNull(Protocol.dupCall(0), "a program's split");
        assertNull(Protocol.dupCall(Protocol.UNDEFINED_COLOR));
        assertNull(Protocol.dupCall(Protocol.DUP_COLOR + 1));
        assertThrows(IllegalArgumentException.class, () -> Protocol.dupColor("MPI_Comm_split"));
    }
}
