package io.bdmpi.examples.data;

import io.bdmpi.examples.store.Storage;

/**
 * Consecutive rows {@code [firstRow, firstRow + rows)} of a sparse matrix in compressed sparse row
 * form, held in {@link Storage} arrays: the non-zeros of local row {@code i} are
 * {@code rowPtr[i] .. rowPtr[i+1]-1} of {@code cols} (and {@code values}, null for a pattern).
 * The arrays may be longer than needed (a reused chunk buffer); only these entries count.
 *
 * @param firstRow global index of local row 0
 * @param rows     number of rows
 * @param rowPtr   {@code rows + 1} offsets into cols and values, from 0
 * @param cols     column indices
 * @param values   values, or null when the matrix has none
 */
public record CsrBlock(long firstRow, int rows, Storage.Ints rowPtr, Storage.Ints cols, Storage.Floats values) {

    /**
     * The program will not read this block again: lets {@code st} free its arrays. A style that
     * brings a parked rank's arrays back when it resumes would otherwise read them for nothing
     * (after the blocking calls that end the last iteration, say).
     */
    public void discard(Storage st) {
        st.discard(rowPtr);
        st.discard(cols);
        if (values != null) {
            st.discard(values);
        }
    }

    /** Non-zeros in this block. */
    public int nnz() {
        return rowPtr.get(rows);
    }

    /** Most non-zeros in a run of rows (see {@link #runEnd}), unless one row has more. */
    public static final int RUN_NNZ = 1 << 16;

    /**
     * The end of the run of whole rows from {@code first} that has at most {@link #RUN_NNZ}
     * non-zeros (a longer row is a run of its own): a hot loop copies a run's non-zeros to the
     * heap in one bulk read instead of reading a mapped array element by element or row by row.
     */
    public int runEnd(int first) {
        int base = rowPtr.get(first);
        int last = first + 1;
        while (last < rows && rowPtr.get(last + 1) - base <= RUN_NNZ) {
            last++;
        }
        return last;
    }
}
