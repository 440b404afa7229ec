package io.bdmpi.tests.programs.collectives;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.IntBuffer;

/**
 * Every blocking collective, checked element by element against a reference each rank computes
 * on its own: barrier, bcast, reduce, allReduce, scan, exScan, gather(v), scatter(v),
 * allGather(v), allToAll(v), reduceScatter, reduceScatterBlock, each with its in-place
 * overloads; roots 0, size-1 and size/2; counts of 0 in the v-forms; blocks laid out in reverse
 * rank order with gaps that must stay untouched; a collective interleaved with point-to-point
 * traffic on the same communicator.
 *
 * <p>The same suite runs, in turn, on
 * <ol>
 *   <li>COMM_WORLD;</li>
 *   <li>{@code split(rank % 3, size - rank)}: up to three uneven groups in reverse order, which run
 *       the suite at the same time (with different data);</li>
 *   <li>a {@code dup} of COMM_WORLD;</li>
 *   <li>COMM_SELF (every rank on its own, all at the same time).</li>
 * </ol>
 *
 * <p>Usage: {@code Collectives BLOCK MODE [COMMS]}: BLOCK elements per rank and block (large
 * blocks exceed {@code -im} and travel through disk), MODE {@code arrays}, {@code direct} or
 * {@code mixed} (both, even within one call), COMMS {@code all} (default) or {@code world+split}.
 */
public final class Collectives {

    private Collectives() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int block = Integer.parseInt(args[0]);
        String mode = args[1];
        boolean all = args.length < 3 || args[2].equals("all");
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();

        new Suite(world, "COMM_WORLD", block, 1, mode).run();

        int colour = rank % 3;
        Intracomm part = world.split(colour, size - rank);
        int partSize = 0;
        int partRank = 0;
        for (int q = 0; q < size; q++) {
            if (q % 3 == colour) {
                partSize++;
                if (q > rank) {
                    partRank++;
                }
            }
        }
        CollCheck.that(!part.isNull(), "split(" + colour + ", " + (size - rank) + ") returned a null communicator");
        CollCheck.equal(partSize, part.getSize(), "size of split colour " + colour);
        CollCheck.equal(partRank, part.getRank(), "rank in split colour " + colour + " (keys reverse the order)");
        new Suite(part, "split colour " + colour, block, 10 + colour, mode).run();

        if (all) {
            Intracomm dup = world.dup();
            new Suite(dup, "dup of COMM_WORLD", block, 20, mode).run();
            new Suite(MPI.COMM_SELF, "COMM_SELF", block, 30 + rank, mode).run();
            dup.free();
        }
        part.free();
        world.barrier();
        CollCheck.ok("Collectives");
        MPI.Finalize();
    }

    /** The collectives on one communicator. */
    static final class Suite extends Workload {

        Suite(Intracomm c, String label, int block, int salt, String mode) throws MPIException {
            super(c, label, block, salt, mode);
        }

        void run() throws MPIException {
            c.barrier();
            bcast();
            reduce();
            reduceInPlace();
            allReduce();
            scan();
            exScan();
            gather();
            gatherInPlace();
            gatherv();
            gathervInPlace();
            scatter();
            scatterInPlace();
            scatterv();
            scattervInPlace();
            allGather();
            allGatherv();
            allToAll();
            allToAllv();
            reduceScatter();
            reduceScatterBlock();
            withPointToPoint();
            c.barrier();
        }

        void bcast() throws MPIException {
            int j = 0;
            for (int root : roots) {
                int step = nextStep();
                Kind k = moveKind(j++, step);
                Buf x = rank == root ? valuesBuf(k, b, step, root) : sentinelBuf(k, b);
                c.bcast(x.obj, b, k.type(), root);
                expect(x, 0, b, i -> val(step, root, i), "bcast from root " + root);
            }
        }

        void reduce() throws MPIException {
            int j = 0;
            for (int root : roots) {
                int step = nextStep();
                Kind k = reduceKind(j, step);
                boolean max = j % 3 == 1;
                // Non-roots pass null as the receive buffer in every other call (allowed: only the root uses it).
                Buf send = valuesBuf(k, b, step, rank);
                Buf recv = rank == root || j % 2 == 1 ? sentinelBuf(k, b) : null;
                c.reduce(send.obj, recv == null ? null : recv.obj, b, k.type(), max ? MPI.MAX : MPI.SUM, root);
                if (rank == root) {
                    expect(recv, 0, b, i -> max ? maxRef(k, step, 0, size, i) : sumRef(k, step, 0, size, i),
                            "reduce " + (max ? "MAX" : "SUM") + " to root " + root);
                }
                expect(send, 0, b, i -> val(step, rank, i), "reduce changed its send buffer");
                j++;
            }
        }

        void reduceInPlace() throws MPIException {
            int j = 0;
            for (int root : new int[] {size - 1, size / 2}) {
                int step = nextStep();
                Kind k = reduceKind(j++, step);
                Buf x = valuesBuf(k, b, step, rank);
                c.reduce(x.obj, b, k.type(), MPI.SUM, root);
                if (rank == root) {
                    expect(x, 0, b, i -> sumRef(k, step, 0, size, i), "in-place reduce SUM to root " + root);
                }
            }
        }

        void allReduce() throws MPIException {
            int step = nextStep();
            Buf send = valuesBuf(Kind.LONG, b, step, rank);
            Buf recv = sentinelBuf(Kind.LONG, b);
            c.allReduce(send.obj, recv.obj, b, MPI.LONG, MPI.SUM);
            expect(recv, 0, b, i -> sumRef(Kind.LONG, step, 0, size, i), "allReduce LONG SUM");

            int step2 = nextStep();
            send = valuesBuf(Kind.INT, b, step2, rank);
            recv = sentinelBuf(Kind.INT, b);
            c.allReduce(send.obj, recv.obj, b, MPI.INT, MPI.MAX);
            expect(recv, 0, b, i -> maxRef(Kind.INT, step2, 0, size, i), "allReduce INT MAX");

            int step3 = nextStep();
            Buf x = valuesBuf(Kind.DOUBLE, b, step3, rank);
            c.allReduce(x.obj, b, MPI.DOUBLE, MPI.SUM);
            expect(x, 0, b, i -> sumRef(Kind.DOUBLE, step3, 0, size, i), "in-place allReduce DOUBLE SUM");

            int step4 = nextStep();
            x = valuesBuf(Kind.SHORT, b, step4, rank);
            c.allReduce(x.obj, b, MPI.SHORT, MPI.MIN);
            expect(x, 0, b, i -> minRef(Kind.SHORT, step4, 0, size, i), "in-place allReduce SHORT MIN");
        }

        void scan() throws MPIException {
            int step = nextStep();
            Buf send = valuesBuf(Kind.INT, b, step, rank);
            Buf recv = sentinelBuf(Kind.INT, b);
            c.scan(send.obj, recv.obj, b, MPI.INT, MPI.SUM);
            expect(recv, 0, b, i -> sumRef(Kind.INT, step, 0, rank + 1, i), "scan INT SUM");

            int step2 = nextStep();
            send = valuesBuf(Kind.DOUBLE, b, step2, rank);
            recv = sentinelBuf(Kind.DOUBLE, b);
            c.scan(send.obj, recv.obj, b, MPI.DOUBLE, MPI.MAX);
            expect(recv, 0, b, i -> maxRef(Kind.DOUBLE, step2, 0, rank + 1, i), "scan DOUBLE MAX");

            int step3 = nextStep();
            Buf x = valuesBuf(Kind.LONG, b, step3, rank);
            c.scan(x.obj, b, MPI.LONG, MPI.SUM);
            expect(x, 0, b, i -> sumRef(Kind.LONG, step3, 0, rank + 1, i), "in-place scan LONG SUM");
        }

        void exScan() throws MPIException {
            int step = nextStep();
            Buf send = valuesBuf(Kind.LONG, b, step, rank);
            Buf recv = sentinelBuf(Kind.LONG, b);
            c.exScan(send.obj, recv.obj, b, MPI.LONG, MPI.SUM);
            if (rank > 0) { // undefined on rank 0
                expect(recv, 0, b, i -> sumRef(Kind.LONG, step, 0, rank, i), "exScan LONG SUM");
            }

            int step2 = nextStep();
            Buf x = valuesBuf(Kind.INT, b, step2, rank);
            c.exScan(x.obj, b, MPI.INT, MPI.MIN);
            if (rank > 0) {
                expect(x, 0, b, i -> minRef(Kind.INT, step2, 0, rank, i), "in-place exScan INT MIN");
            }
        }

        void gather() throws MPIException {
            int j = 0;
            for (int root : roots) {
                int step = nextStep();
                Kind k = moveKind(j++, step);
                Buf send = valuesBuf(k, b, step, rank);
                Buf recv = sentinelBuf(k, size * b);
                c.gather(send.obj, b, k.type(), recv.obj, b, k.type(), root);
                if (rank == root) {
                    for (int q = 0; q < size; q++) {
                        int qq = q;
                        expect(recv, q * b, b, i -> val(step, qq, i), "gather to root " + root + ", block of rank " + q);
                    }
                }
            }
        }

        void gatherInPlace() throws MPIException {
            int root = size - 1;
            int step = nextStep();
            Kind k = moveKind(0, step);
            Buf x;
            if (rank == root) {
                x = sentinelBuf(k, size * b);
                for (int i = 0; i < b; i++) {
                    x.set(root * b + i, val(step, root, i));
                }
            } else {
                x = valuesBuf(k, b, step, rank);
            }
            c.gather(x.obj, b, k.type(), root);
            if (rank == root) {
                for (int q = 0; q < size; q++) {
                    int qq = q;
                    expect(x, q * b, b, i -> val(step, qq, i), "in-place gather to root " + root + ", block of rank " + q);
                }
            }
        }

        void gatherv() throws MPIException {
            int j = 0;
            for (int root : new int[] {0, size / 2}) {
                int step = nextStep();
                Kind k = moveKind(j++, step);
                Layout l = reversed(counts(step), 2);
                Buf send = valuesBuf(k, l.counts()[rank], step, rank);
                Buf recv = sentinelBuf(k, l.total());
                c.gatherv(send.obj, l.counts()[rank], k.type(), recv.obj, l.counts(), l.displs(), k.type(), root);
                if (rank == root) {
                    expectLayout(recv, l, (q, i) -> val(step, q, i), "gatherv to root " + root);
                }
            }
        }

        void gathervInPlace() throws MPIException {
            int root = size - 1;
            int step = nextStep();
            Kind k = moveKind(0, step);
            Layout l = reversed(counts(step), 1);
            if (rank == root) {
                Buf x = layoutBuf(k, l, (q, i) -> val(step, q, i), root);
                c.gatherv(x.obj, l.counts(), l.displs(), k.type(), root);
                expectLayout(x, l, (q, i) -> val(step, q, i), "in-place gatherv to root " + root);
            } else {
                Buf send = valuesBuf(k, l.counts()[rank], step, rank);
                c.gatherv(send.obj, l.counts()[rank], k.type(), root);
            }
        }

        void scatter() throws MPIException {
            int j = 0;
            for (int root : roots) {
                int step = nextStep();
                Kind k = moveKind(j++, step);
                Buf send = sentinelBuf(k, size * b);
                if (rank == root) {
                    for (int q = 0; q < size; q++) {
                        for (int i = 0; i < b; i++) {
                            send.set(q * b + i, val(step, q, i));
                        }
                    }
                }
                Buf recv = sentinelBuf(k, b + 1);
                c.scatter(send.obj, b, k.type(), recv.obj, b, k.type(), root);
                expect(recv, 0, b, i -> val(step, rank, i), "scatter from root " + root);
                expectUntouched(recv, b, "scatter from root " + root);
            }
        }

        void scatterInPlace() throws MPIException {
            int root = size / 2;
            int step = nextStep();
            Kind k = moveKind(1, step);
            if (rank == root) {
                Buf x = buf(k, size * b);
                for (int q = 0; q < size; q++) {
                    for (int i = 0; i < b; i++) {
                        x.set(q * b + i, val(step, q, i));
                    }
                }
                c.scatter(x.obj, b, k.type(), root);
                for (int q = 0; q < size; q++) {
                    int qq = q;
                    expect(x, q * b, b, i -> val(step, qq, i), "in-place scatter changed the root's send area");
                }
            } else {
                Buf x = sentinelBuf(k, b);
                c.scatter(x.obj, b, k.type(), root);
                expect(x, 0, b, i -> val(step, rank, i), "in-place scatter from root " + root);
            }
        }

        void scatterv() throws MPIException {
            int j = 0;
            for (int root : new int[] {size - 1, 0}) {
                int step = nextStep();
                Kind k = moveKind(j++, step);
                Layout l = reversed(counts(step), 2);
                Buf send = rank == root ? layoutBuf(k, l, (q, i) -> val(step, q, i), -1) : sentinelBuf(k, l.total());
                int mine = l.counts()[rank];
                Buf recv = sentinelBuf(k, mine + 1);
                c.scatterv(send.obj, l.counts(), l.displs(), k.type(), recv.obj, mine, k.type(), root);
                expect(recv, 0, mine, i -> val(step, rank, i), "scatterv from root " + root);
                expectUntouched(recv, mine, "scatterv from root " + root);
            }
        }

        void scattervInPlace() throws MPIException {
            int root = size / 2;
            int step = nextStep();
            Kind k = moveKind(2, step);
            Layout l = reversed(counts(step), 1);
            if (rank == root) {
                Buf send = layoutBuf(k, l, (q, i) -> val(step, q, i), -1);
                c.scatterv(send.obj, l.counts(), l.displs(), k.type(), root);
                expectLayout(send, l, (q, i) -> val(step, q, i), "in-place scatterv changed the root's send area");
            } else {
                int mine = l.counts()[rank];
                Buf recv = sentinelBuf(k, mine + 1);
                c.scatterv(recv.obj, mine, k.type(), root);
                expect(recv, 0, mine, i -> val(step, rank, i), "in-place scatterv from root " + root);
                expectUntouched(recv, mine, "in-place scatterv from root " + root);
            }
        }

        void allGather() throws MPIException {
            int step = nextStep();
            Kind k = moveKind(0, step);
            Buf send = valuesBuf(k, b, step, rank);
            Buf recv = sentinelBuf(k, size * b);
            c.allGather(send.obj, b, k.type(), recv.obj, b, k.type());
            for (int q = 0; q < size; q++) {
                int qq = q;
                expect(recv, q * b, b, i -> val(step, qq, i), "allGather, block of rank " + q);
            }

            int step2 = nextStep();
            Kind k2 = moveKind(1, step2);
            Buf x = sentinelBuf(k2, size * b);
            for (int i = 0; i < b; i++) {
                x.set(rank * b + i, val(step2, rank, i));
            }
            c.allGather(x.obj, b, k2.type());
            for (int q = 0; q < size; q++) {
                int qq = q;
                expect(x, q * b, b, i -> val(step2, qq, i), "in-place allGather, block of rank " + q);
            }
        }

        void allGatherv() throws MPIException {
            int step = nextStep();
            Kind k = moveKind(0, step);
            Layout l = reversed(counts(step), 2);
            Buf send = valuesBuf(k, l.counts()[rank], step, rank);
            Buf recv = sentinelBuf(k, l.total());
            c.allGatherv(send.obj, l.counts()[rank], k.type(), recv.obj, l.counts(), l.displs(), k.type());
            expectLayout(recv, l, (q, i) -> val(step, q, i), "allGatherv");

            int step2 = nextStep();
            Kind k2 = moveKind(1, step2);
            Layout l2 = forward(counts(step2), 1);
            Buf x = layoutBuf(k2, l2, (q, i) -> val(step2, q, i), rank);
            c.allGatherv(x.obj, l2.counts(), l2.displs(), k2.type());
            expectLayout(x, l2, (q, i) -> val(step2, q, i), "in-place allGatherv");
        }

        void allToAll() throws MPIException {
            int step = nextStep();
            Kind k = moveKind(0, step);
            Buf send = buf(k, size * b);
            for (int d = 0; d < size; d++) {
                for (int i = 0; i < b; i++) {
                    send.set(d * b + i, pairVal(step, rank, d, i));
                }
            }
            Buf recv = sentinelBuf(k, size * b);
            c.allToAll(send.obj, b, k.type(), recv.obj, b, k.type());
            for (int s = 0; s < size; s++) {
                int ss = s;
                expect(recv, s * b, b, i -> pairVal(step, ss, rank, i), "allToAll, block from rank " + s);
            }
        }

        void allToAllv() throws MPIException {
            int step = nextStep();
            Kind k = moveKind(1, step);
            int[] sendCounts = new int[size];
            int[] recvCounts = new int[size];
            for (int q = 0; q < size; q++) {
                sendCounts[q] = cnt2(step, rank, q);
                recvCounts[q] = cnt2(step, q, rank);
            }
            Layout sl = reversed(sendCounts, 1);
            Layout rl = forward(recvCounts, 3);
            Buf send = layoutBuf(k, sl, (d, i) -> pairVal(step, rank, d, i), -1);
            Buf recv = sentinelBuf(k, rl.total());
            c.allToAllv(send.obj, sl.counts(), sl.displs(), k.type(), recv.obj, rl.counts(), rl.displs(), k.type());
            expectLayout(recv, rl, (s, i) -> pairVal(step, s, rank, i), "allToAllv");
        }

        void reduceScatter() throws MPIException {
            int step = nextStep();
            Kind k = reduceKind(0, step);
            int[] counts = counts(step);
            int[] off = offsets(counts);
            int mine = counts[rank];
            Buf send = valuesBuf(k, off[size], step, rank);
            Buf recv = sentinelBuf(k, mine + 1);
            c.reduceScatter(send.obj, recv.obj, counts, k.type(), MPI.SUM);
            expect(recv, 0, mine, i -> sumRef(k, step, 0, size, off[rank] + i), "reduceScatter SUM");
            expectUntouched(recv, mine, "reduceScatter SUM");

            int step2 = nextStep();
            Kind k2 = reduceKind(1, step2);
            int[] counts2 = counts(step2);
            int[] off2 = offsets(counts2);
            Buf x = valuesBuf(k2, off2[size], step2, rank);
            c.reduceScatter(x.obj, counts2, k2.type(), MPI.MAX);
            expect(x, 0, counts2[rank], i -> maxRef(k2, step2, 0, size, off2[rank] + i), "in-place reduceScatter MAX");
        }

        void reduceScatterBlock() throws MPIException {
            int step = nextStep();
            Kind k = reduceKind(2, step);
            Buf send = valuesBuf(k, size * b, step, rank);
            Buf recv = sentinelBuf(k, b + 1);
            c.reduceScatterBlock(send.obj, recv.obj, b, k.type(), MPI.SUM);
            expect(recv, 0, b, i -> sumRef(k, step, 0, size, rank * b + i), "reduceScatterBlock SUM");
            expectUntouched(recv, b, "reduceScatterBlock SUM");

            int step2 = nextStep();
            Kind k2 = reduceKind(3, step2);
            Buf x = valuesBuf(k2, size * b, step2, rank);
            c.reduceScatterBlock(x.obj, b, k2.type(), MPI.SUM);
            expect(x, 0, b, i -> sumRef(k2, step2, 0, size, rank * b + i), "in-place reduceScatterBlock SUM");
        }

        static void dataThat(boolean condition, String what) {
            if (!condition) {
                CollCheck.failed(what);
            }
        }

        /**
         * Point-to-point messages in flight across a collective on the same communicator: one
         * sent before it and received after, one received (posted) before it and sent after.
         * Neither may be mistaken for the collective's data or wake a rank parked in it.
         */
        void withPointToPoint() throws MPIException {
            int step = nextStep();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            IntBuffer early = MPI.newIntBuffer(2);
            Request posted = c.iRecv(early, 2, MPI.INT, prev, 78);
            IntBuffer out = MPI.newIntBuffer(2);
            out.put(0, (int) val(step, rank, 0)).put(1, 77);
            Request sent = c.iSend(out, 2, MPI.INT, next, 77);

            Buf x = valuesBuf(Kind.LONG, b, step, rank);
            c.allReduce(x.obj, b, MPI.LONG, MPI.SUM);
            expect(x, 0, b, i -> sumRef(Kind.LONG, step, 0, size, i), "allReduce with point-to-point traffic around it");
            int[] got = new int[2];
            c.recv(got, 2, MPI.INT, prev, 77);
            dataThat(got[0] == (int) val(step, prev, 0) && got[1] == 77,
                    label + ": message sent before an allReduce arrived as " + got[0] + "," + got[1]);
            Buf y = rank == size / 2 ? valuesBuf(Kind.INT, b, step, rank) : sentinelBuf(Kind.INT, b);
            c.bcast(y.obj, b, MPI.INT, size / 2);
            expect(y, 0, b, i -> val(step, size / 2, i), "bcast while a receive is posted");
            c.send(new int[] {(int) val(step, rank, 1), 78}, 2, MPI.INT, next, 78);
            posted.waitFor();
            sent.waitFor();
            dataThat(early.get(0) == (int) val(step, prev, 1) && early.get(1) == 78,
                    label + ": receive posted before a bcast got " + early.get(0) + "," + early.get(1));
        }
    }
}
