package mpi;

import java.nio.ByteBuffer;

/**
 * MPI_Pack, MPI_Unpack and MPI_Pack_size: the packed form is the form of a message, the items'
 * type-map bytes back to back in native order, so packed data sent as {@code MPI.PACKED} unpacks
 * on the receiver as if the items had been sent with their own type. Errors are returned to the
 * communicator, which applies its handler.
 */
final class Packing {

    private Packing() {
    }

    /**
     * Packs {@code incount} items into {@code outbuf} from byte {@code position}.
     *
     * @return the position just past the packed items
     * @throws MPIException as {@link BufferAccess#byteLength} for the items; ERR_ARG for a null
     *                      {@code outbuf} or a position outside it; ERR_TRUNCATE when the items do
     *                      not fit from {@code position}
     */
    static int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        String call = "MPI_Pack";
        int bytes = BufferAccess.byteLength(call, inbuf, incount, type, false);
        checkPosition(call, outbuf, position);
        if (bytes == 0) {
            return position;
        }
        if (bytes > outbuf.length - position) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": " + incount + " items of " + type + " take " + bytes
                    + " bytes, but the output buffer has " + (outbuf.length - position) + " from position " + position);
        }
        BufferAccess.pack(inbuf, incount, type, ByteBuffer.wrap(outbuf).position(position));
        return position + bytes;
    }

    /**
     * Unpacks {@code outcount} items from {@code inbuf} at byte {@code position} into {@code outbuf}.
     *
     * @return the position just past the unpacked items
     * @throws MPIException as {@link BufferAccess#byteLength} for the items; ERR_ARG for a null
     *                      {@code inbuf} or a position outside it; ERR_TRUNCATE when {@code inbuf}
     *                      holds fewer bytes than the items need from {@code position}
     */
    static int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        String call = "MPI_Unpack";
        int bytes = BufferAccess.byteLength(call, outbuf, outcount, type, true);
        checkPosition(call, inbuf, position);
        if (bytes > inbuf.length - position) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": " + outcount + " items of " + type + " need " + bytes
                    + " bytes, but the input buffer has " + (inbuf.length - position) + " from position " + position);
        }
        BufferAccess.unpack(ByteBuffer.wrap(inbuf, position, bytes), outbuf, type);
        return position + bytes;
    }

    /**
     * Bytes that {@code incount} items take when packed: exactly what {@link #pack} writes.
     *
     * @throws MPIException ERR_TYPE for a null, freed or uncommitted type, ERR_COUNT for a negative
     *                      count or 2 GiB and more
     */
    static int packSize(int incount, Datatype type) throws MPIException {
        return BufferAccess.messageBytes("MPI_Pack_size", incount, type);
    }

    private static void checkPosition(String call, byte[] buf, int position) throws MPIException {
        if (buf == null) {
            throw MPIException.of(MPI.ERR_ARG, call + ": null packed buffer");
        }
        if (position < 0 || position > buf.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": position " + position + " is outside the packed buffer of "
                    + buf.length + " bytes");
        }
    }
}
