package io.bdmpi.ooc;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ScratchBufferTest {

    @Test
    void aDropGivesThePagesBackAndTheBufferReadsAsZerosUntilWrittenAgain() throws IOException {
        dropsAndReadsZeros(64 * Libc.pageSize() + 100);
    }

    @Test
    void aBufferOfHugePagesDropsLikeAnyOther() throws IOException {
        dropsAndReadsZeros(ScratchBuffer.HUGE_PAGE + 3 * Libc.pageSize());
    }

    @Test
    void aNewBufferHoldsNoMemoryYet() throws IOException {
        ScratchBuffer scratch = ScratchBuffer.allocate(64 * Libc.pageSize());
        assertEquals(0, Libc.residentPages(Libc.address(scratch.bytes()), 64L * Libc.pageSize()));
    }

    private static void dropsAndReadsZeros(int length) throws IOException {
        ScratchBuffer scratch = ScratchBuffer.allocate(length);
        ByteBuffer bytes = scratch.bytes();
        assertEquals(length, bytes.capacity());
        assertEquals(0, Libc.address(bytes) % Libc.pageSize(), "starts at a page boundary");
        for (int i = 0; i < length; i++) {
            bytes.put(i, (byte) (i | 1));
        }
        long pages = (length + Libc.pageSize() - 1) / Libc.pageSize();
        long bytesOfPages = pages * Libc.pageSize();
        assertEquals(pages, Libc.residentPages(Libc.address(bytes), bytesOfPages));

        scratch.drop();
        assertEquals(0, Libc.residentPages(Libc.address(bytes), bytesOfPages), "no page left in memory");
        for (int i = 0; i < length; i++) {
            assertEquals(0, bytes.get(i));
        }
        bytes.put(length - 1, (byte) 7);
        assertEquals(7, bytes.get(length - 1));
    }

    @Test
    void aNegativeLengthIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> ScratchBuffer.allocate(-1));
    }
}
