package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A program's own reduction, given to {@link Op#Op(UserFunction, boolean)}. Override one of the
 * two {@code call} forms; each must leave {@code inVec[i] op inOutVec[i]} in {@code inOutVec[i]}
 * for the {@code count} items (for a non-commutative operator, {@code inVec} holds the
 * contribution of the lower ranks).
 *
 * <p>The runtime calls the buffer form, whose default copies the buffers into arrays, calls the
 * array form and copies the results back; for {@code BOOLEAN} data, which no buffer holds, it
 * calls the array form directly.
 */
public abstract class UserFunction {

    /**
     * The array form: {@code inVec} and {@code inOutVec} are arrays of the datatype's base type
     * ({@code int[]} for {@code MPI.INT}, {@code byte[]} for the pair types, {@code boolean[]} for
     * {@code MPI.BOOLEAN}), each of {@code count} items, i.e. count &times; extent elements.
     *
     * @param inVec the first operand (the lower ranks' contribution)
     * @param inOutVec the second operand, replaced by the result
     * @param count the number of items
     * @param datatype the datatype of the items
     * @throws UnsupportedOperationException unless overridden
     * @throws MPIException an error of the function, passed on to the reducing call
     */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("Not supported yet.");
    }

    /**
     * The buffer form: native-order direct buffers of {@code count} items each, from position 0.
     * The default goes through the array form.
     *
     * @param in the first operand (the lower ranks' contribution)
     * @param inOut the second operand, replaced by the result
     * @param count the number of items
     * @param datatype the datatype of the items
     * @throws IllegalArgumentException for a datatype whose base type no ByteBuffer holds (BOOLEAN)
     * @throws MPIException an error of the function, passed on to the reducing call
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        if (datatype.base == Datatype.Base.BOOLEAN) {
            throw new IllegalArgumentException("Unsupported datatype: " + datatype + " has no buffer form");
        }
        int elements = count * datatype.extentBytes() / datatype.base.bytes;
        Object inVec = java.lang.reflect.Array.newInstance(componentType(datatype), elements);
        Object inOutVec = java.lang.reflect.Array.newInstance(componentType(datatype), elements);
        // The items' layout, gaps included, element by element of the base type.
        Datatype elementType = datatype.baseType();
        BufferAccess.unpack(native0(in, count, datatype), inVec, elementType);
        BufferAccess.unpack(native0(inOut, count, datatype), inOutVec, elementType);
        call(inVec, inOutVec, count, datatype);
        BufferAccess.pack(inOutVec, elements, elementType, inOut.duplicate().clear().order(ByteOrder.nativeOrder()));
    }

    /** The first {@code count} items of a buffer, whatever its position and byte order. */
    private static ByteBuffer native0(ByteBuffer b, int count, Datatype type) {
        return b.duplicate().clear().limit(count * type.extentBytes()).order(ByteOrder.nativeOrder());
    }

    private static Class<?> componentType(Datatype type) {
        switch (type.base) {
            case BYTE: return byte.class;
            case CHAR: return char.class;
            case SHORT: return short.class;
            case INT: return int.class;
            case LONG: return long.class;
            case FLOAT: return float.class;
            case DOUBLE: return double.class;
            default: return boolean.class;
        }
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /** The mpiJava function this one calls, or null for an Open MPI one. */
    User_function mpiJava() {
        return null;
    }
}
