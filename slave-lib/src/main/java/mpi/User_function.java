package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * mpiJava 1.2: the function of a user-defined {@link Op} ({@code new Op(User_function, boolean)}),
 * with offsets into its arrays. It is given arrays of the datatype's buffer element ({@code int[]}
 * for {@code MPI.INT}, and for {@code MPI.INT2} too, as value, index pairs), or {@code Object[]}
 * for {@code MPI.OBJECT}; it combines {@code count} items of {@code invec} into {@code inoutvec}.
 */
public abstract class User_function {

    /**
     * For subclasses.
     */
    protected User_function() {
    }

    /**
     * Combines {@code inoutvec[k] = invec[k] op inoutvec[k]} for {@code count} items.
     *
     * @param invec the first operands
     * @param inoffset the element of {@code invec} where the items start
     * @param inoutvec the second operands, and the results
     * @param inoutoffset the element of {@code inoutvec} where the items start
     * @param count the number of items
     * @param datatype the items' datatype
     * @throws MPIException to report an error
     */
    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count,
                              Datatype datatype) throws MPIException;

    /** The Open MPI form of {@code f}, which a user-defined {@link Op} calls. */
    static UserFunction adapter(User_function f) {
        return new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
                f.Call(inVec, 0, inOutVec, 0, count, datatype);
            }

            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
                if (datatype.elementBytes() == datatype.base.bytes) {
                    super.call(in, inOut, count, datatype);
                    return;
                }
                // MPI.INT2: mpiJava sees an int[] of (value, index) pairs, not Open MPI's bytes.
                int ints = count * datatype.extentBytes() / 4;
                int[] inVec = new int[ints];
                int[] inOutVec = new int[ints];
                in.duplicate().clear().order(ByteOrder.nativeOrder()).asIntBuffer().get(inVec);
                inOut.duplicate().clear().order(ByteOrder.nativeOrder()).asIntBuffer().get(inOutVec);
                f.Call(inVec, 0, inOutVec, 0, count, datatype);
                inOut.duplicate().clear().order(ByteOrder.nativeOrder()).asIntBuffer().put(inOutVec);
            }

            @Override
            User_function mpiJava() {
                return f;
            }
        };
    }
}
