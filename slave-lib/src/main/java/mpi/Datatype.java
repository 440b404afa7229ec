package mpi;

/**
 * An MPI datatype. Only the basic types exist here; each has a Java element type (its "base") and
 * an extent of one base unit. Sizes and extents are in base units, as in Open MPI's bindings.
 */
public final class Datatype implements Freeable {

    /** Java element kinds; {@code bytes} is the size of one element on the wire. */
    enum Base {
        BYTE(1), CHAR(2), SHORT(2), BOOLEAN(1), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

        final int bytes;

        Base(int bytes) {
            this.bytes = bytes;
        }
    }

    final Base base;
    private final String name;

    Datatype(Base base, String name) {
        this.base = base;
        this.name = name;
    }

    /** Bytes of one item of this type on the wire. */
    int byteSize() {
        return base.bytes;
    }

    public int getExtent() throws MPIException {
        return 1;
    }

    public int getSize() throws MPIException {
        return 1;
    }

    public int getLb() throws MPIException {
        return 0;
    }

    public int getTrueExtent() throws MPIException {
        return 1;
    }

    public int getTrueLb() throws MPIException {
        return 0;
    }

    public String getName() throws MPIException {
        return name;
    }

    /** Basic types are committed already. */
    public void commit() throws MPIException {
    }

    /** Predefined types cannot be freed; this does nothing. */
    @Override
    public void free() throws MPIException {
    }

    public boolean isNull() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
