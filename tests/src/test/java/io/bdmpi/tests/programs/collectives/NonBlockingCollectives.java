package io.bdmpi.tests.programs.collectives;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.IntBuffer;

/**
 * The nonblocking collectives on direct buffers, checked against references:
 * <ol>
 *   <li>{@code iBarrier} completed with {@code waitFor}; the request is null afterwards;</li>
 *   <li>nine collectives started back to back (iBcast, iReduce, iAllReduce, iGather, iScatter,
 *       iAllGather, iAllToAll, iScan, iExScan), completed with one {@code waitAll};</li>
 *   <li>the v-forms (iGatherv, iScatterv, iAllGatherv, iAllToAllv) completed one by one with
 *       {@code waitFor}, in the reverse order of their start;</li>
 *   <li>the in-place forms of iReduce, iAllReduce, iGather, iScatter, iAllGather, iAllGatherv,
 *       iScan, iExScan (and the root-only/non-root iGatherv and iScatterv);</li>
 *   <li>an iAllReduce completed by polling {@code test()} (after a barrier every rank passed);
 *       {@code testAll} on two more;</li>
 *   <li>iRecv, iAllGather, iSend and iBcast in one {@code waitAll};</li>
 *   <li>a blocking bcast between the start and the wait of an iAllReduce;</li>
 *   <li>nonblocking collectives outstanding on COMM_WORLD and on a split at the same time.</li>
 * </ol>
 * Usage: {@code NonBlockingCollectives BLOCK}.
 */
public final class NonBlockingCollectives {

    static final long PATIENCE_NS = 30_000_000_000L;

    private NonBlockingCollectives() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int block = Integer.parseInt(args[0]);
        Intracomm world = MPI.COMM_WORLD;
        new Suite(world, "COMM_WORLD", block, 1).run();

        int rank = world.getRank();
        Intracomm half = world.split(rank % 2, -rank);
        new Suite(half, "split colour " + rank % 2, block, 5 + rank % 2).run();
        new Suite(world, "COMM_WORLD", block, 7).concurrentComms(half, block);
        half.free();

        world.barrier();
        CollCheck.ok("NonBlockingCollectives");
        MPI.Finalize();
    }

    static final class Suite extends Workload {

        Suite(Intracomm c, String label, int block, int salt) throws MPIException {
            super(c, label, block, salt, "direct");
        }

        void run() throws MPIException {
            Request r = c.iBarrier();
            r.waitFor();
            CollCheck.that(r.isNull(), label + ": iBarrier request not null after waitFor");
            batch();
            vForms();
            inPlace();
            polled();
            withPointToPoint();
            blockingInBetween();
        }

        void batch() throws MPIException {
            int bcastRoot = size - 1;
            int reduceRoot = size / 2;
            int gatherRoot = 0;
            int scatterRoot = size - 1;
            int s1 = nextStep();
            int s2 = nextStep();
            int s3 = nextStep();
            int s4 = nextStep();
            int s5 = nextStep();
            int s6 = nextStep();
            int s7 = nextStep();
            int s8 = nextStep();
            int s9 = nextStep();

            Buf bc = rank == bcastRoot ? valuesBuf(Kind.INT, b, s1, rank) : sentinelBuf(Kind.INT, b);
            Buf redIn = valuesBuf(Kind.LONG, b, s2, rank);
            Buf redOut = sentinelBuf(Kind.LONG, b);
            Buf arIn = valuesBuf(Kind.DOUBLE, b, s3, rank);
            Buf arOut = sentinelBuf(Kind.DOUBLE, b);
            Buf gIn = valuesBuf(Kind.SHORT, b, s4, rank);
            Buf gOut = sentinelBuf(Kind.SHORT, size * b);
            Buf scIn = sentinelBuf(Kind.FLOAT, size * b);
            if (rank == scatterRoot) {
                for (int q = 0; q < size; q++) {
                    for (int i = 0; i < b; i++) {
                        scIn.set(q * b + i, val(s5, q, i));
                    }
                }
            }
            Buf scOut = sentinelBuf(Kind.FLOAT, b);
            Buf agIn = valuesBuf(Kind.CHAR, b, s6, rank);
            Buf agOut = sentinelBuf(Kind.CHAR, size * b);
            Buf aaIn = buf(Kind.LONG, size * b);
            for (int d = 0; d < size; d++) {
                for (int i = 0; i < b; i++) {
                    aaIn.set(d * b + i, pairVal(s7, rank, d, i));
                }
            }
            Buf aaOut = sentinelBuf(Kind.LONG, size * b);
            Buf scanIn = valuesBuf(Kind.INT, b, s8, rank);
            Buf scanOut = sentinelBuf(Kind.INT, b);
            Buf exIn = valuesBuf(Kind.LONG, b, s9, rank);
            Buf exOut = sentinelBuf(Kind.LONG, b);

            Request[] reqs = {
                c.iBcast(bc.buffer(), b, MPI.INT, bcastRoot),
                c.iReduce(redIn.buffer(), redOut.buffer(), b, MPI.LONG, MPI.SUM, reduceRoot),
                c.iAllReduce(arIn.buffer(), arOut.buffer(), b, MPI.DOUBLE, MPI.MAX),
                c.iGather(gIn.buffer(), b, MPI.SHORT, gOut.buffer(), b, MPI.SHORT, gatherRoot),
                c.iScatter(scIn.buffer(), b, MPI.FLOAT, scOut.buffer(), b, MPI.FLOAT, scatterRoot),
                c.iAllGather(agIn.buffer(), b, MPI.CHAR, agOut.buffer(), b, MPI.CHAR),
                c.iAllToAll(aaIn.buffer(), b, MPI.LONG, aaOut.buffer(), b, MPI.LONG),
                c.iScan(scanIn.buffer(), scanOut.buffer(), b, MPI.INT, MPI.SUM),
                c.iExScan(exIn.buffer(), exOut.buffer(), b, MPI.LONG, MPI.SUM),
            };
            Request.waitAll(reqs);
            for (int j = 0; j < reqs.length; j++) {
                CollCheck.that(reqs[j].isNull(), label + ": request " + j + " not null after waitAll");
            }

            expect(bc, 0, b, i -> val(s1, bcastRoot, i), "iBcast from root " + bcastRoot);
            if (rank == reduceRoot) {
                expect(redOut, 0, b, i -> sumRef(Kind.LONG, s2, 0, size, i), "iReduce SUM to root " + reduceRoot);
            }
            expect(arOut, 0, b, i -> maxRef(Kind.DOUBLE, s3, 0, size, i), "iAllReduce MAX");
            if (rank == gatherRoot) {
                for (int q = 0; q < size; q++) {
                    int qq = q;
                    expect(gOut, q * b, b, i -> val(s4, qq, i), "iGather, block of rank " + q);
                }
            }
            expect(scOut, 0, b, i -> val(s5, rank, i), "iScatter from root " + scatterRoot);
            for (int q = 0; q < size; q++) {
                int qq = q;
                expect(agOut, q * b, b, i -> val(s6, qq, i), "iAllGather, block of rank " + q);
                expect(aaOut, q * b, b, i -> pairVal(s7, qq, rank, i), "iAllToAll, block from rank " + q);
            }
            expect(scanOut, 0, b, i -> sumRef(Kind.INT, s8, 0, rank + 1, i), "iScan SUM");
            if (rank > 0) {
                expect(exOut, 0, b, i -> sumRef(Kind.LONG, s9, 0, rank, i), "iExScan SUM");
            }
        }

        void vForms() throws MPIException {
            int gRoot = size / 2;
            int sRoot = 0;
            int s1 = nextStep();
            int s2 = nextStep();
            int s3 = nextStep();
            int s4 = nextStep();

            Layout gl = reversed(counts(s1), 2);
            Buf gIn = valuesBuf(Kind.INT, gl.counts()[rank], s1, rank);
            Buf gOut = sentinelBuf(Kind.INT, gl.total());
            Layout sl = reversed(counts(s2), 1);
            Buf sIn = rank == sRoot ? layoutBuf(Kind.DOUBLE, sl, (q, i) -> val(s2, q, i), -1) : sentinelBuf(Kind.DOUBLE, sl.total());
            Buf sOut = sentinelBuf(Kind.DOUBLE, sl.counts()[rank] + 1);
            Layout al = forward(counts(s3), 1);
            Buf aIn = valuesBuf(Kind.LONG, al.counts()[rank], s3, rank);
            Buf aOut = sentinelBuf(Kind.LONG, al.total());
            int[] sc = new int[size];
            int[] rc = new int[size];
            for (int q = 0; q < size; q++) {
                sc[q] = cnt2(s4, rank, q);
                rc[q] = cnt2(s4, q, rank);
            }
            Layout vsl = reversed(sc, 1);
            Layout vrl = forward(rc, 2);
            Buf vIn = layoutBuf(Kind.INT, vsl, (d, i) -> pairVal(s4, rank, d, i), -1);
            Buf vOut = sentinelBuf(Kind.INT, vrl.total());

            Request[] reqs = {
                c.iGatherv(gIn.buffer(), gl.counts()[rank], MPI.INT, gOut.buffer(), gl.counts(), gl.displs(), MPI.INT, gRoot),
                c.iScatterv(sIn.buffer(), sl.counts(), sl.displs(), MPI.DOUBLE, sOut.buffer(), sl.counts()[rank], MPI.DOUBLE, sRoot),
                c.iAllGatherv(aIn.buffer(), al.counts()[rank], MPI.LONG, aOut.buffer(), al.counts(), al.displs(), MPI.LONG),
                c.iAllToAllv(vIn.buffer(), vsl.counts(), vsl.displs(), MPI.INT, vOut.buffer(), vrl.counts(), vrl.displs(), MPI.INT),
            };
            for (int j = reqs.length - 1; j >= 0; j--) {
                reqs[j].waitFor();
            }
            if (rank == gRoot) {
                expectLayout(gOut, gl, (q, i) -> val(s1, q, i), "iGatherv to root " + gRoot);
            }
            expect(sOut, 0, sl.counts()[rank], i -> val(s2, rank, i), "iScatterv from root " + sRoot);
            expectUntouched(sOut, sl.counts()[rank], "iScatterv from root " + sRoot);
            expectLayout(aOut, al, (q, i) -> val(s3, q, i), "iAllGatherv");
            expectLayout(vOut, vrl, (s, i) -> pairVal(s4, s, rank, i), "iAllToAllv");
        }

        void inPlace() throws MPIException {
            int root = size - 1;
            int s1 = nextStep();
            int s2 = nextStep();
            int s3 = nextStep();
            int s4 = nextStep();
            int s5 = nextStep();
            int s6 = nextStep();
            int s7 = nextStep();
            int s8 = nextStep();
            int s9 = nextStep();
            int s10 = nextStep();

            Buf red = valuesBuf(Kind.INT, b, s1, rank);
            Buf ar = valuesBuf(Kind.LONG, b, s2, rank);
            Buf g;
            if (rank == root) {
                g = sentinelBuf(Kind.DOUBLE, size * b);
                for (int i = 0; i < b; i++) {
                    g.set(root * b + i, val(s3, root, i));
                }
            } else {
                g = valuesBuf(Kind.DOUBLE, b, s3, rank);
            }
            Buf sc;
            if (rank == root) {
                sc = buf(Kind.INT, size * b);
                for (int q = 0; q < size; q++) {
                    for (int i = 0; i < b; i++) {
                        sc.set(q * b + i, val(s4, q, i));
                    }
                }
            } else {
                sc = sentinelBuf(Kind.INT, b);
            }
            Buf ag = sentinelBuf(Kind.SHORT, size * b);
            for (int i = 0; i < b; i++) {
                ag.set(rank * b + i, val(s5, rank, i));
            }
            Layout agl = reversed(counts(s6), 1);
            Buf agv = layoutBuf(Kind.LONG, agl, (q, i) -> val(s6, q, i), rank);
            Buf scan = valuesBuf(Kind.LONG, b, s7, rank);
            Buf ex = valuesBuf(Kind.INT, b, s8, rank);
            Layout gvl = reversed(counts(s9), 2);
            Buf gv = rank == root ? layoutBuf(Kind.INT, gvl, (q, i) -> val(s9, q, i), root)
                    : valuesBuf(Kind.INT, gvl.counts()[rank], s9, rank);
            Layout svl = forward(counts(s10), 1);
            Buf sv = rank == root ? layoutBuf(Kind.LONG, svl, (q, i) -> val(s10, q, i), -1)
                    : sentinelBuf(Kind.LONG, svl.counts()[rank] + 1);

            Request[] reqs = {
                c.iReduce(red.buffer(), b, MPI.INT, MPI.SUM, root),
                c.iAllReduce(ar.buffer(), b, MPI.LONG, MPI.MIN),
                c.iGather(g.buffer(), b, MPI.DOUBLE, root),
                c.iScatter(sc.buffer(), b, MPI.INT, root),
                c.iAllGather(ag.buffer(), b, MPI.SHORT),
                c.iAllGatherv(agv.buffer(), agl.counts(), agl.displs(), MPI.LONG),
                c.iScan(scan.buffer(), b, MPI.LONG, MPI.SUM),
                c.iExScan(ex.buffer(), b, MPI.INT, MPI.SUM),
                rank == root ? c.iGatherv(gv.buffer(), gvl.counts(), gvl.displs(), MPI.INT, root)
                        : c.iGatherv(gv.buffer(), gvl.counts()[rank], MPI.INT, root),
                rank == root ? c.iScatterv(sv.buffer(), svl.counts(), svl.displs(), MPI.LONG, root)
                        : c.iScatterv(sv.buffer(), svl.counts()[rank], MPI.LONG, root),
            };
            Request.waitAll(reqs);

            if (rank == root) {
                expect(red, 0, b, i -> sumRef(Kind.INT, s1, 0, size, i), "in-place iReduce SUM to root " + root);
                for (int q = 0; q < size; q++) {
                    int qq = q;
                    expect(g, q * b, b, i -> val(s3, qq, i), "in-place iGather, block of rank " + q);
                    expect(sc, q * b, b, i -> val(s4, qq, i), "in-place iScatter changed the root's send area");
                }
                expectLayout(gv, gvl, (q, i) -> val(s9, q, i), "in-place iGatherv to root " + root);
            } else {
                expect(sc, 0, b, i -> val(s4, rank, i), "in-place iScatter from root " + root);
                expect(sv, 0, svl.counts()[rank], i -> val(s10, rank, i), "in-place iScatterv from root " + root);
                expectUntouched(sv, svl.counts()[rank], "in-place iScatterv from root " + root);
            }
            expect(ar, 0, b, i -> minRef(Kind.LONG, s2, 0, size, i), "in-place iAllReduce MIN");
            for (int q = 0; q < size; q++) {
                int qq = q;
                expect(ag, q * b, b, i -> val(s5, qq, i), "in-place iAllGather, block of rank " + q);
            }
            expectLayout(agv, agl, (q, i) -> val(s6, q, i), "in-place iAllGatherv");
            expect(scan, 0, b, i -> sumRef(Kind.LONG, s7, 0, rank + 1, i), "in-place iScan SUM");
            if (rank > 0) {
                expect(ex, 0, b, i -> sumRef(Kind.INT, s8, 0, rank, i), "in-place iExScan SUM");
            }
        }

        /** Completion by polling: every rank has started the iAllReduce before anyone polls. */
        void polled() throws MPIException {
            int s1 = nextStep();
            Buf in = valuesBuf(Kind.INT, b, s1, rank);
            Buf out = sentinelBuf(Kind.INT, b);
            Request r = c.iAllReduce(in.buffer(), out.buffer(), b, MPI.INT, MPI.SUM);
            c.barrier();
            long deadline = System.nanoTime() + PATIENCE_NS;
            while (!r.test()) {
                CollCheck.that(System.nanoTime() - deadline < 0,
                        label + ": test() on an iAllReduce that every rank started (and then passed a barrier) never returned true");
            }
            CollCheck.that(r.isNull(), label + ": request not null after test() returned true");
            expect(out, 0, b, i -> sumRef(Kind.INT, s1, 0, size, i), "iAllReduce SUM completed by test()");

            int s2 = nextStep();
            int s3 = nextStep();
            Buf x = valuesBuf(Kind.LONG, b, s2, rank);
            Buf y = rank == 0 ? valuesBuf(Kind.DOUBLE, b, s3, 0) : sentinelBuf(Kind.DOUBLE, b);
            Request[] two = {c.iAllReduce(x.buffer(), b, MPI.LONG, MPI.MAX), c.iBcast(y.buffer(), b, MPI.DOUBLE, 0)};
            c.barrier();
            deadline = System.nanoTime() + PATIENCE_NS;
            while (!Request.testAll(two)) {
                CollCheck.that(System.nanoTime() - deadline < 0, label + ": testAll on two started collectives never returned true");
            }
            expect(x, 0, b, i -> maxRef(Kind.LONG, s2, 0, size, i), "in-place iAllReduce MAX completed by testAll");
            expect(y, 0, b, i -> val(s3, 0, i), "iBcast completed by testAll");
        }

        void withPointToPoint() throws MPIException {
            int s1 = nextStep();
            int s2 = nextStep();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            IntBuffer in = MPI.newIntBuffer(b);
            IntBuffer out = MPI.newIntBuffer(b);
            for (int i = 0; i < b; i++) {
                out.put(i, (int) val(s1, rank, i) ^ 0x5A5A);
            }
            Buf ag = sentinelBuf(Kind.INT, size * b);
            Buf mine = valuesBuf(Kind.INT, b, s1, rank);
            Buf bc = rank == size - 1 ? valuesBuf(Kind.LONG, b, s2, rank) : sentinelBuf(Kind.LONG, b);
            Request[] reqs = {
                c.iRecv(in, b, MPI.INT, prev, 3),
                c.iAllGather(mine.buffer(), b, MPI.INT, ag.buffer(), b, MPI.INT),
                c.iSend(out, b, MPI.INT, next, 3),
                c.iBcast(bc.buffer(), b, MPI.LONG, size - 1),
            };
            Request.waitAll(reqs);
            for (int i = 0; i < b; i++) {
                CollCheck.dataEqual((int) val(s1, prev, i) ^ 0x5A5A, in.get(i), label + ": iRecv completed with collectives, element " + i);
            }
            for (int q = 0; q < size; q++) {
                int qq = q;
                expect(ag, q * b, b, i -> val(s1, qq, i), "iAllGather waited with iSend/iRecv, block of rank " + q);
            }
            expect(bc, 0, b, i -> val(s2, size - 1, i), "iBcast waited with iSend/iRecv");
        }

        void blockingInBetween() throws MPIException {
            int s1 = nextStep();
            int s2 = nextStep();
            Buf x = valuesBuf(Kind.DOUBLE, b, s1, rank);
            Buf y = sentinelBuf(Kind.DOUBLE, b);
            Request r = c.iAllReduce(x.buffer(), y.buffer(), b, MPI.DOUBLE, MPI.SUM);
            Buf z = rank == size / 2 ? valuesBuf(Kind.INT, b, s2, rank) : sentinelBuf(Kind.INT, b);
            c.bcast(z.obj, b, MPI.INT, size / 2);
            expect(z, 0, b, i -> val(s2, size / 2, i), "blocking bcast while an iAllReduce is outstanding");
            r.waitFor();
            expect(y, 0, b, i -> sumRef(Kind.DOUBLE, s1, 0, size, i), "iAllReduce with a bcast between start and wait");
        }

        /** One collective outstanding on this communicator and one on {@code other} at once. */
        void concurrentComms(Intracomm other, int block) throws MPIException {
            Suite o = new Suite(other, "split", block, 9);
            int s1 = nextStep();
            int s2 = o.nextStep();
            Buf x = valuesBuf(Kind.LONG, b, s1, rank);
            Buf y = o.valuesBuf(Kind.LONG, block, s2, o.rank);
            Buf xo = sentinelBuf(Kind.LONG, b);
            Buf yo = o.sentinelBuf(Kind.LONG, block);
            Request ro = other.iAllReduce(y.buffer(), yo.buffer(), block, MPI.LONG, MPI.SUM);
            Request rw = c.iAllReduce(x.buffer(), xo.buffer(), b, MPI.LONG, MPI.SUM);
            Request.waitAll(new Request[] {rw, ro});
            expect(xo, 0, b, i -> sumRef(Kind.LONG, s1, 0, size, i), "iAllReduce on COMM_WORLD with one outstanding on a split");
            o.expect(yo, 0, block, i -> o.sumRef(Kind.LONG, s2, 0, o.size, i), "iAllReduce on a split with one outstanding on COMM_WORLD");
        }
    }
}
