package mpi;

import io.bdmpi.protocol.ProtocolException;
import io.bdmpi.spill.SpillException;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class ErrorsTest {

    @Test
    void shouldFormatTheOneLineOfAFatalError() {
        MPIException e = MPIException.of(MPI.ERR_TRUNCATE, "MPI_Recv: message of 400 bytes from rank 0 (tag 1) truncated");
        assertEquals("bdmpi: rank 3: MPI_Recv: message of 400 bytes from rank 0 (tag 1) truncated (MPI_ERR_TRUNCATE)",
                Errors.fatalLine(3, e));
    }

    @Test
    void shouldNameEveryErrorClass() {
        assertEquals("MPI_SUCCESS", Errors.className(MPI.SUCCESS));
        assertEquals("MPI_ERR_BUFFER", Errors.className(MPI.ERR_BUFFER));
        assertEquals("MPI_ERR_PENDING", Errors.className(MPI.ERR_PENDING));
        assertEquals("MPI_ERR_WIN", Errors.className(MPI.ERR_WIN));
        assertEquals("MPI_ERR_PROC_ABORTED", Errors.className(MPI.ERR_PROC_ABORTED));
        assertEquals("MPI_ERR_SYSRESOURCE", Errors.className(MPI.ERR_SYSRESOURCE));
        assertEquals("MPI error class 1000", Errors.className(1000));
    }

    @Test
    void shouldTellALostMasterFromAFullDisk() {
        MPIException lost = Errors.transport("MPI_Recv", new IOException("Broken pipe"));
        assertEquals(MPI.ERR_OTHER, lost.getErrorClass());
        assertEquals("MPI_Recv: lost connection to the bdmpi master: Broken pipe", lost.getMessage());
        MPIException disk = Errors.transport("MPI_Send", new SpillException("cannot write a message of 9 bytes to /x: No space"));
        assertEquals(MPI.ERR_OTHER, disk.getErrorClass());
        assertEquals("MPI_Send: cannot write a message of 9 bytes to /x: No space", disk.getMessage());
        assertEquals(MPI.ERR_INTERN, Errors.transport("MPI_Wait", new ProtocolException("bad frame")).getErrorClass());
    }

    @Test
    void shouldCarryCodeAndClass() {
        MPIException java = new MPIException("MPI is not initialized.");
        assertEquals(0, java.getErrorCode());
        assertEquals(0, java.getErrorClass());
        MPIException mpi = new MPIException(MPI.ERR_RANK, MPI.ERR_RANK, "bad rank");
        assertEquals(MPI.ERR_RANK, mpi.getErrorCode());
        assertEquals(MPI.ERR_RANK, mpi.getErrorClass());
        assertEquals("bad rank", mpi.getMessage());
        IllegalStateException cause = new IllegalStateException("x");
        MPIException wrapped = new MPIException(cause);
        assertSame(cause, wrapped.getCause());
        assertArrayEquals(cause.getStackTrace(), wrapped.getStackTrace());
        assertEquals(0, wrapped.getErrorClass());
    }
}
