package mpi;

import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.Reduction;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reduction operator: one of the predefined {@code MPI.MAX} ... {@code MPI.MAXLOC}, which the
 * master applies, or a program's own {@link UserFunction}, which the slaves apply: the master
 * hands the members that need a result every contribution, and each folds them in rank order.
 *
 * <p>Every reduction here combines in rank order, commutative or not, so results never depend on
 * the order in which ranks arrive.
 */
public final class Op implements Freeable {

    /** The master's operator; null for user functions and for operators no reduction accepts. */
    private final ReduceOp predefined;
    private final String name;
    private final boolean commute;
    /** Kept after {@link #free}: a nonblocking reduction started before still folds with it, as MPI asks. */
    private final UserFunction function;
    private volatile boolean freed;

    /**
     * A user-defined operator.
     *
     * @param function the reduction
     * @param commute  whether it is commutative; recorded only, since every reduction here
     *                 combines in rank order anyway
     */
    public Op(UserFunction function, boolean commute) {
        this(null, function, commute, "user-defined MPI_Op");
    }

    private Op(ReduceOp predefined, UserFunction function, boolean commute, String name) {
        this.predefined = predefined;
        this.function = function;
        this.commute = commute;
        this.name = name;
    }

    /** A predefined operator; {@code wire} null for those no reduction accepts (REPLACE, NO_OP). */
    static Op predefined(ReduceOp wire, String name) {
        return new Op(wire, null, true, name);
    }

    /**
     * Whether the operator is commutative: true for the predefined ones.
     *
     * @return whether the operator is commutative
     */
    public boolean isCommutative() {
        return commute;
    }

    /**
     * Releases a user-defined operator: it becomes null, and no new reduction may use it, while
     * one started before still completes with it (MPI_Op_free). Does nothing to a predefined one.
     */
    @Override
    public void free() throws MPIException {
        if (predefined == null && function != null) {
            freed = true;
        }
    }

    /**
     * Whether this operator has been freed.
     *
     * @return whether it has been freed
     */
    public boolean isNull() {
        return freed;
    }

    /** Whether this is a program's own operator, applied by the slaves. */
    boolean isUserDefined() {
        return function != null;
    }

    /**
     * {@code inOut = in op inOut} with the user's function, over {@code count} packed items of
     * {@code type} in native-order direct buffers (from index 0; their positions are reset). The
     * function sees the items laid out as the type says (gaps included); BOOLEAN items, which no
     * buffer holds, go to the array form, as in Open MPI.
     */
    void applyUserFunction(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) throws MPIException {
        boolean bool = type.base == Datatype.Base.BOOLEAN;
        if (!bool && type.map.dense()) {
            function.call(in.clear(), inOut.clear(), count, type);
            return;
        }
        // The function sees the items in their layout, gaps included, as in MPI.
        int bytes = count * type.byteSize();
        long span = count == 0 ? 0 : Math.max((long) count * type.map.extent,
                (long) (count - 1) * type.map.extent + type.map.trueUb);
        Object inVec = bool ? new boolean[(int) span] : ByteBuffer.allocateDirect((int) span).order(ByteOrder.nativeOrder());
        Object inOutVec = bool ? new boolean[(int) span]
                               : ByteBuffer.allocateDirect((int) span).order(ByteOrder.nativeOrder());
        BufferAccess.unpack(in.clear().limit(bytes), inVec, type);
        BufferAccess.unpack(inOut.clear().limit(bytes), inOutVec, type);
        if (bool) {
            function.call(inVec, inOutVec, count, type);
        } else {
            function.call((ByteBuffer) inVec, (ByteBuffer) inOutVec, count, type);
        }
        BufferAccess.pack(inOutVec, count, type, inOut.clear());
    }

    /**
     * The operator on the wire for reducing items of {@code type}.
     *
     * @throws MPIException ERR_OP when this operator does not apply to {@code type}, is freed, or is
     *                      one no reduction accepts
     */
    ReduceOp wireFor(String call, Datatype type) throws MPIException {
        if (freed) {
            throw MPIException.of(MPI.ERR_OP, call + ": the operator has been freed");
        }
        if (function != null) {
            return ReduceOp.USER;
        }
        if (predefined == null) {
            throw MPIException.of(MPI.ERR_OP, call + ": " + name + " is not a reduction operator");
        }
        if (type.element == null) {
            throw MPIException.of(MPI.ERR_OP, call + ": " + name + " is not defined for " + type + (type.predefined ? ""
                    : type.byteSize() == 0 ? ", which holds no basic items"
                    : ", whose items mix basic types (a predefined operator takes items of one basic type)"));
        }
        String unsupported = Reduction.unsupported(predefined, type.element);
        if (unsupported != null) {
            throw MPIException.of(MPI.ERR_OP, call + ": " + unsupported);
        }
        return predefined;
    }

    @Override
    public String toString() {
        return name;
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /**
     * mpiJava 1.2: a user-defined operator calling {@code function} with offsets.
     *
     * @param function the function
     * @param commute whether the operation is commutative
     * @throws MPIException never here; declared as in mpiJava
     */
    public Op(User_function function, boolean commute) throws MPIException {
        this(User_function.adapter(function), commute);
    }

    /** The mpiJava function of a user-defined operator made from one, else null. */
    User_function mpiJavaFunction() {
        UserFunction f = function;
        return f == null ? null : f.mpiJava();
    }

    private static final Op PAIR_MINLOC = pairLocation(1);
    private static final Op PAIR_MAXLOC = pairLocation(-1);

    /**
     * The operator an mpiJava reduction applies to {@code type}: MINLOC and MAXLOC over mpiJava's
     * pair types {@code SHORT2}, {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2} (value and index
     * of the value's type, which the master has no C struct for) are folded here, as user
     * operators are; anything else is this operator.
     */
    Op forMpiJava(Datatype type) {
        if (type != MPI.SHORT2 && type != MPI.LONG2 && type != MPI.FLOAT2 && type != MPI.DOUBLE2) {
            return this;
        }
        return this == MPI.MINLOC ? PAIR_MINLOC : this == MPI.MAXLOC ? PAIR_MAXLOC : this;
    }

    /** MINLOC ({@code sign} 1) or MAXLOC (-1) over (value, index) pairs of one primitive type; the lower index wins ties. */
    private static Op pairLocation(int sign) {
        return new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype datatype) {
                for (int k = 0; k < 2 * count; k += 2) {
                    int c = sign * compare(Array.get(in, k), Array.get(inOut, k));
                    if (c < 0 || c == 0 && compare(Array.get(in, k + 1), Array.get(inOut, k + 1)) < 0) {
                        Array.set(inOut, k, Array.get(in, k));
                        Array.set(inOut, k + 1, Array.get(in, k + 1));
                    }
                }
            }
        }, true);
    }

    @SuppressWarnings("unchecked")
    private static int compare(Object a, Object b) {
        return ((Comparable<Object>) a).compareTo(b);
    }
}
