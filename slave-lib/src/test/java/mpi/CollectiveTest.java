package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.SlaveRequest;
import mpi.FakeMaster.Contribution;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Blocking collectives against a stand-in master; this slave is rank 1 of 4 in COMM_WORLD, and
 * the other ranks hand in what each test says. What the slave sends is read from its requests;
 * what it receives is checked in its buffers.
 */
class CollectiveTest extends WithMaster {

    private static final Comm WORLD = MPI.COMM_WORLD;

    private static int[] filled(int n, int value) {
        int[] a = new int[n];
        Arrays.fill(a, value);
        return a;
    }

    // ---------------------------------------------------------------- barrier and bcast

    @Test
    void shouldSendNothingForABarrier() throws Exception {
        WORLD.barrier();
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.BARRIER, s.kind());
        assertEquals(ReduceOp.NONE, s.op());
        assertEquals(ElementType.NONE, s.type());
        assertEquals(0, s.count());
        assertEquals(0, s.blockBytes().length);
        assertEquals(0, s.data().length());
    }

    @Test
    void shouldBroadcastTheRootsItemsAsBytes() throws Exception {
        WORLD.bcast(new int[] {7, 8, 9, 10}, 3, MPI.INT, FakeMaster.RANK);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.BCAST, s.kind());
        assertEquals(FakeMaster.RANK, s.root());
        assertEquals(12, s.count(), "a broadcast's count is its bytes");
        assertArrayEquals(bytesOf(7, 8, 9), dataOf(s));
    }

    @Test
    void shouldReceiveABroadcastIntoASlice() throws Exception {
        master.contribute((rank, mine) -> new Contribution(rank == 2 ? bytesOf(4, 5) : new byte[0]));
        int[] in = {-1, -1, -1, -1};
        WORLD.bcast(MPI.slice(in, 1), 2, MPI.INT, 2);
        assertArrayEquals(new int[] {-1, 4, 5, -1}, in);
        assertEquals(0, onlyStart().data().length(), "a non-root sends nothing");
        assertEquals(8, onlyStart().count());
    }

    // ---------------------------------------------------------------- gather

    @Test
    void shouldGatherEveryRanksBlockInRankOrderAtTheRoot() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank * 10, rank * 10 + 1)));
        int[] all = new int[8];
        WORLD.gather(new int[] {11, 12}, 2, MPI.INT, all, 2, MPI.INT, FakeMaster.RANK);
        assertArrayEquals(new int[] {0, 1, 11, 12, 20, 21, 30, 31}, all);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.GATHER, s.kind());
        assertArrayEquals(bytesOf(11, 12), dataOf(s));
        assertEquals(0, s.blockBytes().length);
    }

    @Test
    void shouldOnlySendWhenNotTheRoot() throws Exception {
        WORLD.gather(new double[] {1.5}, 1, MPI.DOUBLE, null, 0, null, 3);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(3, s.root());
        assertArrayEquals(bytesOf(1.5), dataOf(s));
    }

    @Test
    void shouldGatherInPlaceAroundTheRootsOwnBlock() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank * 10)));
        int[] all = {-1, 99, -1, -1};
        WORLD.gather(all, 1, MPI.INT, FakeMaster.RANK);
        assertArrayEquals(new int[] {0, 99, 20, 30}, all);
        assertArrayEquals(bytesOf(99), dataOf(onlyStart()), "the root's own block comes from its slot");

        int[] mine = {5};
        WORLD.gather(mine, 1, MPI.INT, 0);
        assertArrayEquals(bytesOf(5), dataOf(requests(SlaveRequest.StartCollective.class).get(1)), "a non-root sends buf");
    }

    @Test
    void shouldPlaceGathervBlocksAtTheirDisplacements() throws Exception {
        master.contribute((rank, mine) -> new Contribution(rank == 0 ? bytesOf(1, 2) : rank == 2 ? bytesOf(5, 6) : new byte[0]));
        int[] all = filled(8, -1);
        WORLD.gatherv(new int[] {9}, 1, MPI.INT, all, new int[] {2, 1, 2, 0}, new int[] {6, 4, 0, 7}, MPI.INT, FakeMaster.RANK);
        assertArrayEquals(new int[] {5, 6, -1, -1, 9, -1, 1, 2}, all);

        int[] inPlace = filled(8, -1);
        inPlace[4] = 9;
        WORLD.gatherv(inPlace, new int[] {2, 1, 2, 0}, new int[] {6, 4, 0, 7}, MPI.INT, FakeMaster.RANK);
        assertArrayEquals(all, inPlace);
        assertArrayEquals(bytesOf(9), dataOf(requests(SlaveRequest.StartCollective.class).get(1)));

        WORLD.gatherv(new int[] {3, 4}, 2, MPI.INT, 0);
        assertArrayEquals(bytesOf(3, 4), dataOf(requests(SlaveRequest.StartCollective.class).get(2)));
    }

    @Test
    void shouldRefuseTheInPlaceGathervFormOfTheOtherRole() throws Exception {
        MPIException e = assertThrows(MPIException.class,
                () -> WORLD.gatherv(new int[4], new int[] {1, 1, 1, 1}, new int[] {0, 1, 2, 3}, MPI.INT, 0));
        assertEquals(MPI.ERR_ARG, e.getErrorClass());
        assertTrue(e.getMessage().contains("gatherv(sendbuf, sendcount, sendtype, root)"), e.getMessage());
        assertError(MPI.ERR_ARG, () -> WORLD.gatherv(new int[1], 1, MPI.INT, FakeMaster.RANK));
        assertError(MPI.ERR_ARG, () -> WORLD.scatterv(new int[4], new int[] {1, 1, 1, 1}, new int[] {0, 1, 2, 3}, MPI.INT, 0));
        assertError(MPI.ERR_ARG, () -> WORLD.scatterv(new int[1], 1, MPI.INT, FakeMaster.RANK));
        assertTrue(requests().isEmpty());
    }

    @Test
    void shouldRaiseTruncateForALongerBlockAndLeaveTheBufferAlone() throws Exception {
        master.contribute((rank, mine) -> new Contribution(rank == 3 ? bytesOf(1, 2, 3) : bytesOf(rank)));
        int[] all = filled(8, -1);
        MPIException e = assertThrows(MPIException.class,
                () -> WORLD.gather(new int[] {7}, 1, MPI.INT, all, 2, MPI.INT, FakeMaster.RANK));
        assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
        assertEquals("MPI_Gather: the data from rank 3 has 12 bytes, more than the 8 bytes of receive space for it"
                + " (2 items of MPI_INT)", e.getMessage());
        assertArrayEquals(filled(8, -1), all, "nothing is copied when a block does not fit");
    }

    // ---------------------------------------------------------------- scatter

    @Test
    void shouldScatterTheRootsBlocksWithTheirSizes() throws Exception {
        int[] mine = new int[2];
        WORLD.scatter(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 2, MPI.INT, mine, 2, MPI.INT, FakeMaster.RANK);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.SCATTER, s.kind());
        assertArrayEquals(new long[] {8, 8, 8, 8}, s.blockBytes());
        assertArrayEquals(bytesOf(0, 1, 2, 3, 4, 5, 6, 7), dataOf(s));
        assertArrayEquals(new int[] {2, 3}, mine, "the root gets its own block back");
    }

    @Test
    void shouldReceiveItsBlockOfAnotherRootsScatter() throws Exception {
        master.contribute((rank, mine) -> rank == 0 ? new Contribution(bytesOf(0, 1, 2, 3, 4, 5), new long[] {8, 12, 4, 0})
                : new Contribution(new byte[0]));
        long[] unused = {};
        int[] in = filled(4, -1);
        WORLD.scatter(unused, 0, MPI.LONG, in, 4, MPI.INT, 0);
        assertArrayEquals(new int[] {2, 3, 4, -1}, in);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(0, s.blockBytes().length, "a non-root has no blocks");
        assertEquals(0, s.data().length());
    }

    @Test
    void shouldScattervFromDisplacementsAndKeepTheRootsBlockInPlace() throws Exception {
        int[] send = {0, 1, 2, 3, 4, 5, 6, 7};
        int[] mine = new int[2];
        WORLD.scatterv(send, new int[] {1, 2, 0, 1}, new int[] {7, 0, 5, 3}, MPI.INT, mine, 2, MPI.INT, FakeMaster.RANK);
        SlaveRequest.StartCollective s = onlyStart();
        assertArrayEquals(new long[] {4, 8, 0, 4}, s.blockBytes());
        assertArrayEquals(bytesOf(7, 0, 1, 3), dataOf(s));
        assertArrayEquals(new int[] {0, 1}, mine);

        WORLD.scatterv(send, new int[] {1, 2, 0, 1}, new int[] {7, 0, 5, 3}, MPI.INT, FakeMaster.RANK);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, send, "in place, the root's block stays");

        master.contribute((rank, me) -> new Contribution(bytesOf(40, 41, 42), new long[] {4, 8, 0, 0}));
        int[] in = new int[3];
        WORLD.scatterv(in, 3, MPI.INT, 0);
        assertArrayEquals(new int[] {41, 42, 0}, in);
    }

    @Test
    void shouldScatterInPlace() throws Exception {
        int[] all = {0, 1, 2, 3};
        WORLD.scatter(all, 1, MPI.INT, FakeMaster.RANK);
        assertArrayEquals(new int[] {0, 1, 2, 3}, all);
        assertArrayEquals(new long[] {4, 4, 4, 4}, onlyStart().blockBytes());

        master.contribute((rank, me) -> new Contribution(bytesOf(50, 51, 52, 53), new long[] {4, 4, 4, 4}));
        int[] one = {-1};
        WORLD.scatter(one, 1, MPI.INT, 2);
        assertArrayEquals(new int[] {51}, one);
    }

    // ---------------------------------------------------------------- allGather and allToAll

    @Test
    void shouldAllGatherInPlaceAndAtDisplacements() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank * 10, rank * 10 + 1)));
        int[] all = filled(8, -1);
        all[2] = 11;
        all[3] = 12;
        WORLD.allGather(all, 2, MPI.INT);
        assertArrayEquals(new int[] {0, 1, 11, 12, 20, 21, 30, 31}, all);
        assertArrayEquals(bytesOf(11, 12), dataOf(onlyStart()));

        int[] v = filled(9, -1);
        WORLD.allGatherv(new int[] {11, 12}, 2, MPI.INT, v, new int[] {2, 2, 2, 2}, new int[] {7, 0, 4, 2}, MPI.INT);
        assertArrayEquals(new int[] {11, 12, 30, 31, 20, 21, -1, 0, 1}, v);
    }

    @Test
    void shouldAllGatherDoublesIntoADirectBuffer() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank + 0.5)));
        DoubleBuffer all = MPI.newDoubleBuffer(4);
        WORLD.allGather(new double[] {1.5}, 1, MPI.DOUBLE, all, 1, MPI.DOUBLE);
        double[] got = new double[4];
        all.get(0, got);
        assertArrayEquals(new double[] {0.5, 1.5, 2.5, 3.5}, got);
    }

    @Test
    void shouldExchangeBlocksInAllToAll() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank * 100, rank * 100 + 1, rank * 100 + 2, rank * 100 + 3),
                new long[] {4, 4, 4, 4}));
        int[] in = new int[4];
        WORLD.allToAll(new int[] {10, 11, 12, 13}, 1, MPI.INT, in, 1, MPI.INT);
        assertArrayEquals(new int[] {1, 11, 201, 301}, in);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.ALLTOALL, s.kind());
        assertArrayEquals(new long[] {4, 4, 4, 4}, s.blockBytes());
    }

    @Test
    void shouldExchangeVaryingBlocksInAllToAllv() throws Exception {
        // Rank r sends r + 1 ints of value r to each rank.
        master.contribute((rank, mine) -> {
            int[] values = filled(4 * (rank + 1), rank);
            long b = 4L * (rank + 1);
            return new Contribution(bytesOf(values), new long[] {b, b, b, b});
        });
        int[] send = {9, 1, 1, 8, 7};
        int[] in = filled(11, -1);
        WORLD.allToAllv(send, new int[] {1, 2, 0, 1}, new int[] {4, 1, 0, 3}, MPI.INT,
                in, new int[] {1, 2, 3, 4}, new int[] {10, 8, 5, 0}, MPI.INT);
        assertArrayEquals(new long[] {4, 8, 0, 4}, onlyStart().blockBytes());
        assertArrayEquals(bytesOf(7, 1, 1, 8), dataOf(onlyStart()));
        assertArrayEquals(new int[] {3, 3, 3, 3, -1, 2, 2, 2, 1, 1, 0}, in);
    }

    @Test
    void shouldExchangeBlocksOfTheirOwnTypesAtByteDisplacementsInAllToAllw() throws Exception {
        // To rank 0 an int at byte 0, to rank 1 a long at byte 4, to rank 2 a double at byte 12, to rank 3 nothing.
        ByteBuffer send = ByteBuffer.allocateDirect(20).order(java.nio.ByteOrder.nativeOrder());
        send.putInt(0, 7).putLong(4, 99).putDouble(12, 1.5);
        // Every rank sends what this one does, so 8 bytes come from each: long 99.
        ByteBuffer in = ByteBuffer.allocateDirect(40).order(java.nio.ByteOrder.nativeOrder());
        WORLD.allToAllw(send, new int[] {1, 1, 1, 0}, new int[] {0, 4, 12, 0},
                new Datatype[] {MPI.INT, MPI.LONG, MPI.DOUBLE, MPI.BYTE},
                in, new int[] {1, 2, 1, 8}, new int[] {0, 8, 20, 28}, new Datatype[] {MPI.LONG, MPI.INT, MPI.LONG, MPI.BYTE});
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.ALLTOALL, s.kind());
        assertArrayEquals(new long[] {4, 8, 8, 0}, s.blockBytes());
        ByteBuffer sent = ByteBuffer.wrap(dataOf(s)).order(java.nio.ByteOrder.nativeOrder());
        assertEquals(7, sent.getInt(0));
        assertEquals(99, sent.getLong(4));
        assertEquals(1.5, sent.getDouble(12));
        for (int at : new int[] {0, 8, 20, 28}) {
            assertEquals(99, in.getLong(at), "the block at byte " + at);
        }
    }

    @Test
    void shouldTakeByteDisplacementsOfPartItemsInArraysInAllToAllw() throws Exception {
        // Items of two ints (8 bytes) at bytes 4, 12, 20 and 28: whole ints but not whole items.
        Datatype two = Datatype.createContiguous(2, MPI.INT);
        two.commit();
        int[] send = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        int[] in = new int[9];
        Arrays.fill(in, -1);
        int[] ones = {1, 1, 1, 1};
        int[] displs = {4, 12, 20, 28};
        Datatype[] types = {two, two, two, two};
        WORLD.allToAllw(send, ones, displs, types, in, ones, displs, types);
        assertArrayEquals(bytesOf(1, 2, 3, 4, 5, 6, 7, 8), dataOf(onlyStart()));
        // Every rank sends what this one does: the block for this rank, from each.
        int b = 1 + 2 * FakeMaster.RANK;
        assertArrayEquals(new int[] {-1, b, b + 1, b, b + 1, b, b + 1, b, b + 1}, in);
    }

    @Test
    void shouldTakeEmptyBlocksOfAZeroExtentTypeAtAnyByteInAllToAllw() throws Exception {
        Datatype none = Datatype.createResized(MPI.INT, 0, 0);
        none.commit();
        int[] buf = {7, 7};
        int[] zeros = new int[4];
        int[] displs = {0, 3, 5, 9};
        Datatype[] types = {none, none, none, none};
        WORLD.allToAllw(buf, zeros, displs, types, buf, zeros, displs, types);
        assertArrayEquals(new int[] {7, 7}, buf);
    }

    @Test
    void shouldSpillLargeBlocksAndReadThemBackAsSlices() throws Exception {
        int[] mine = new int[100];
        Arrays.setAll(mine, i -> 1000 + i);
        master.contribute((rank, me) -> new Contribution(bytesOf(filled(100, rank))));
        int[] all = new int[400];
        WORLD.allGather(mine, 100, MPI.INT, all, 100, MPI.INT);
        assertInstanceOf(Payload.Spilled.class, onlyStart().data(), "400 bytes go through a file");
        assertArrayEquals(filled(100, 0), Arrays.copyOfRange(all, 0, 100));
        assertArrayEquals(mine, Arrays.copyOfRange(all, 100, 200));
        assertArrayEquals(filled(100, 3), Arrays.copyOfRange(all, 300, 400));
    }

    // ---------------------------------------------------------------- predefined reductions

    @Test
    void shouldReduceAtTheRootWithTheMastersOperator() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank, 10 * rank)));
        int[] sum = new int[2];
        WORLD.reduce(new int[] {1, 10}, sum, 2, MPI.INT, MPI.SUM, FakeMaster.RANK);
        assertArrayEquals(new int[] {6, 60}, sum);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.REDUCE, s.kind());
        assertEquals(ReduceOp.SUM, s.op());
        assertEquals(ElementType.INT, s.type());
        assertEquals(2, s.count(), "a reduction's count is its elements");

        WORLD.reduce(new int[] {1, 10}, null, 2, MPI.INT, MPI.SUM, 3);
        assertEquals(3, requests(SlaveRequest.StartCollective.class).get(1).root(), "a non-root needs no receive buffer");
    }

    @Test
    void shouldReduceInPlace() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank + 1L)));
        long[] buf = {2};
        WORLD.reduce(buf, 1, MPI.LONG, MPI.PROD, FakeMaster.RANK);
        assertArrayEquals(new long[] {24}, buf);
        WORLD.allReduce(buf, 1, MPI.LONG, MPI.MAX);
        assertArrayEquals(new long[] {24}, buf, "24 beats 1, 3 and 4");
        long[] other = {2};
        WORLD.reduce(other, 1, MPI.LONG, MPI.SUM, 0);
        assertArrayEquals(new long[] {2}, other, "a non-root's buffer is input only");
    }

    @Test
    void shouldFindTheMaximumAndItsIndexWithDoubleIntPairs() throws Exception {
        ByteBuffer in = MPI.newByteBuffer(MPI.DOUBLE_INT.getExtent() * 2);
        DoubleInt.Data first = MPI.doubleInt.getData(in, 0);
        first.putValue(2.5);
        first.putIndex(1);
        DoubleInt.Data second = MPI.doubleInt.getData(in, 1);
        second.putValue(7.0);
        second.putIndex(1);
        master.contribute((rank, mine) -> {
            ByteBuffer b = ByteBuffer.allocate(32).order(java.nio.ByteOrder.nativeOrder());
            b.putDouble(0, rank == 3 ? 2.5 : 1.0).putInt(8, rank).putDouble(16, rank * 3.0).putInt(24, rank);
            return new Contribution(b.array());
        });
        ByteBuffer out = MPI.newByteBuffer(32);
        WORLD.allReduce(in, out, 2, MPI.DOUBLE_INT, MPI.MAXLOC);
        DoubleInt.Data a = MPI.doubleInt.getData(out, 0);
        DoubleInt.Data b = MPI.doubleInt.getData(out, 1);
        assertEquals(2.5, a.getValue());
        assertEquals(1, a.getIndex(), "on equal values the smaller index wins");
        assertEquals(9.0, b.getValue());
        assertEquals(3, b.getIndex());
        assertEquals(ElementType.DOUBLE_INT, onlyStart().type());
        assertEquals(2, onlyStart().count(), "count is in pairs");
    }

    @Test
    void shouldScanAndExScanInRankOrder() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank + 1)));
        int[] out = {-1};
        MPI.COMM_WORLD.scan(new int[] {2}, out, 1, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {3}, out);
        MPI.COMM_WORLD.exScan(new int[] {2}, out, 1, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {1}, out);
        int[] buf = {2};
        MPI.COMM_WORLD.scan(buf, 1, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {3}, buf);

        int[] alone = {-7};
        MPI.COMM_SELF.exScan(new int[] {5}, alone, 1, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {-7}, alone, "rank 0 of an exScan gets nothing");
        assertEquals(Protocol.COMM_SELF_ID, requests(SlaveRequest.StartCollective.class).get(3).commId());
    }

    @Test
    void shouldReduceScatterBlocksOfTheSum() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(10 * rank, 10 * rank, 10 * rank, 10 * rank),
                mine.blockBytes()));
        int[] out = filled(3, -1);
        WORLD.reduceScatter(new int[] {1, 2, 3, 4}, out, new int[] {1, 2, 0, 1}, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {52, 53, -1}, out);
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(CollectiveKind.REDUCE_SCATTER, s.kind());
        assertEquals(4, s.count(), "the whole vector");
        assertArrayEquals(new long[] {4, 8, 0, 4}, s.blockBytes());

        master.contribute((rank, mine) -> new Contribution(bytesOf(filled(8, rank)), mine.blockBytes()));
        int[] buf = {1, 1, 1, 1, 1, 1, 1, 1};
        WORLD.reduceScatterBlock(buf, 2, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {6, 6, 1, 1, 1, 1, 1, 1}, buf, "this rank's block at the start");

        int[] block = new int[2];
        WORLD.reduceScatterBlock(new int[] {1, 1, 1, 1, 1, 1, 1, 1}, block, 2, MPI.INT, MPI.MIN);
        assertArrayEquals(new int[] {0, 0}, block);
    }

    @Test
    void shouldKeepReductionDataInlineHoweverLarge() throws Exception {
        double[] mine = new double[100];
        Arrays.fill(mine, 0.25);
        double[] out = new double[100];
        WORLD.allReduce(mine, out, 100, MPI.DOUBLE, MPI.SUM);
        assertInstanceOf(Payload.Inline.class, onlyStart().data(), "the master must read it");
        assertEquals(1.0, out[99]);
    }

    // ---------------------------------------------------------------- user-defined operators

    /** 2x2 int matrices, 4 ints each, row-major: inOut = in x inOut (not commutative). */
    private static final class MatrixProduct extends UserFunction {
        int calls;

        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            calls++;
            int[] a = (int[]) inVec;
            int[] b = (int[]) inOutVec;
            for (int m = 0; m < count; m += 4) {
                int[] p = times(Arrays.copyOfRange(a, m, m + 4), Arrays.copyOfRange(b, m, m + 4));
                System.arraycopy(p, 0, b, m, 4);
            }
        }
    }

    private static int[] times(int[] x, int[] y) {
        return new int[] {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
            x[2] * y[1] + x[3] * y[3]};
    }

    private static final int[][] MATRICES = {{1, 1, 0, 1}, {2, 0, 0, 1}, {1, 0, 1, 1}, {0, 1, 1, 0}};

    private void contributeMatrices() {
        master.contribute((rank, mine) -> new Contribution(bytesOf(MATRICES[rank])));
    }

    @Test
    void shouldFoldAUserOperatorInRankOrder() throws Exception {
        contributeMatrices();
        MatrixProduct product = new MatrixProduct();
        Op op = new Op(product, false);
        int[] out = new int[4];
        WORLD.allReduce(MATRICES[1].clone(), out, 4, MPI.INT, op);
        int[] expected = times(MATRICES[0], times(MATRICES[1], times(MATRICES[2], MATRICES[3])));
        assertArrayEquals(expected, out);
        int[] reversed = times(MATRICES[3], times(MATRICES[2], times(MATRICES[1], MATRICES[0])));
        assertTrue(!Arrays.equals(expected, reversed), "the test's matrices do not commute");
        assertEquals(3, product.calls, "n - 1 applications");
        SlaveRequest.StartCollective s = onlyStart();
        assertEquals(ReduceOp.USER, s.op());
        assertEquals(ElementType.INT, s.type());
        assertEquals(4, s.count());
        assertTrue(!op.isCommutative());
    }

    @Test
    void shouldFoldTheContributionsEachKindHandsOut() throws Exception {
        contributeMatrices();
        Op op = new Op(new MatrixProduct(), false);
        int[] out = new int[4];
        MPI.COMM_WORLD.scan(MATRICES[1].clone(), out, 4, MPI.INT, op);
        assertArrayEquals(times(MATRICES[0], MATRICES[1]), out);
        MPI.COMM_WORLD.exScan(MATRICES[1].clone(), out, 4, MPI.INT, op);
        assertArrayEquals(MATRICES[0], out, "a single contribution is the result as it is");
        int[] atRoot = new int[4];
        WORLD.reduce(MATRICES[1].clone(), atRoot, 4, MPI.INT, op, FakeMaster.RANK);
        assertArrayEquals(times(times(times(MATRICES[0], MATRICES[1]), MATRICES[2]), MATRICES[3]), atRoot);

        // Each rank's vector holds four matrices; block i (one matrix) goes to rank i.
        master.contribute((rank, mine) -> {
            int[] v = new int[16];
            for (int i = 0; i < 4; i++) {
                System.arraycopy(MATRICES[(rank + i) % 4], 0, v, 4 * i, 4);
            }
            return new Contribution(bytesOf(v), mine.blockBytes());
        });
        int[] mineV = new int[16];
        for (int i = 0; i < 4; i++) {
            System.arraycopy(MATRICES[(1 + i) % 4], 0, mineV, 4 * i, 4);
        }
        int[] block = new int[4];
        WORLD.reduceScatterBlock(mineV, block, 4, MPI.INT, op);
        // Block 1 of rank r is MATRICES[(r + 1) % 4].
        assertArrayEquals(times(MATRICES[1], times(MATRICES[2], times(MATRICES[3], MATRICES[0]))), block);
    }

    @Test
    void shouldCallTheBufferFormWithNativeDirectBuffers() throws Exception {
        // Decimal concatenation of longs: associative, not commutative.
        UserFunction concat = new UserFunction() {
            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
                assertTrue(in.isDirect() && inOut.isDirect());
                assertEquals(java.nio.ByteOrder.nativeOrder(), in.order());
                for (int i = 0; i < count; i++) {
                    long b = inOut.getLong(8 * i);
                    inOut.putLong(8 * i, Long.parseLong(in.getLong(8 * i) + "" + b));
                }
            }
        };
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank + 1L, rank + 5L)));
        long[] out = new long[2];
        WORLD.allReduce(new long[] {2, 6}, out, 2, MPI.LONG, new Op(concat, false));
        assertArrayEquals(new long[] {1234, 5678}, out);
    }

    @Test
    void shouldGiveBooleansToTheArrayForm() throws Exception {
        // "The left one": associative, not commutative, so the result is rank 0's.
        UserFunction left = new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                System.arraycopy((boolean[]) in, 0, (boolean[]) inOut, 0, count);
            }
        };
        master.contribute((rank, mine) -> new Contribution(new byte[] {(byte) (rank == 0 ? 1 : 0), 1}));
        boolean[] out = new boolean[2];
        WORLD.allReduce(new boolean[] {false, false}, out, 2, MPI.BOOLEAN, new Op(left, true));
        assertArrayEquals(new boolean[] {true, true}, out);
        assertEquals(ElementType.BOOLEAN, onlyStart().type());
    }

    @Test
    void shouldFoldSpilledUserReductions() throws Exception {
        long[] mine = new long[100];
        Arrays.fill(mine, 2);
        master.contribute((rank, me) -> {
            long[] v = new long[100];
            Arrays.fill(v, rank + 1);
            return new Contribution(bytesOf(v));
        });
        UserFunction sum = new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                for (int i = 0; i < count; i++) {
                    ((long[]) inOut)[i] += ((long[]) in)[i];
                }
            }
        };
        long[] out = new long[100];
        WORLD.allReduce(mine, out, 100, MPI.LONG, new Op(sum, true));
        assertInstanceOf(Payload.Spilled.class, onlyStart().data(), "the master only passes user data on");
        assertEquals(10, out[0]);
        assertEquals(10, out[99]);
    }

    // ---------------------------------------------------------------- argument errors

    @Test
    void shouldRejectBadArgumentsBeforeTellingTheMaster() throws Exception {
        int[] four = new int[4];
        assertError(MPI.ERR_ROOT, () -> WORLD.bcast(four, 1, MPI.INT, 4));
        assertError(MPI.ERR_ROOT, () -> WORLD.reduce(four, four, 1, MPI.INT, MPI.SUM, -1));
        assertError(MPI.ERR_ROOT, () -> WORLD.gather(four, 1, MPI.INT, four, 1, MPI.INT, MPI.PROC_NULL));
        assertError(MPI.ERR_COUNT, () -> WORLD.allGather(four, -1, MPI.INT, four, 1, MPI.INT));
        assertError(MPI.ERR_COUNT, () -> WORLD.allToAll(four, 1, MPI.INT, four, -1, MPI.INT));
        assertError(MPI.ERR_COUNT, () -> WORLD.reduceScatter(four, four, new int[] {1, -1, 1, 1}, MPI.INT, MPI.SUM));
        assertError(MPI.ERR_TYPE, () -> WORLD.bcast(four, 1, null, 0));
        assertError(MPI.ERR_TYPE, () -> WORLD.allReduce(new boolean[8], new double[4], 1, MPI.DOUBLE, MPI.SUM));
        assertError(MPI.ERR_BUFFER, () -> WORLD.allGather(four, 2, MPI.INT, four, 2, MPI.INT));
        assertError(MPI.ERR_BUFFER, () -> WORLD.scatter(new int[3], 1, MPI.INT, four, 1, MPI.INT, FakeMaster.RANK));
        assertError(MPI.ERR_BUFFER, () -> WORLD.reduce(four, null, 1, MPI.INT, MPI.SUM, FakeMaster.RANK));
        assertError(MPI.ERR_BUFFER, () -> WORLD.gatherv(four, 1, MPI.INT, four, new int[] {1, 1, 1, 1},
                new int[] {0, 1, 2, 4}, MPI.INT, FakeMaster.RANK));
        assertError(MPI.ERR_BUFFER, () -> WORLD.allGatherv(four, 1, MPI.INT, four, new int[] {1, 1, 1, 1},
                new int[] {0, -1, 2, 3}, MPI.INT));
        assertError(MPI.ERR_ARG, () -> WORLD.allGatherv(four, 1, MPI.INT, four, new int[] {1, 1, 1}, new int[4], MPI.INT));
        assertError(MPI.ERR_ARG, () -> WORLD.allToAllv(four, new int[4], null, MPI.INT, four, new int[4], new int[4], MPI.INT));
        assertError(MPI.ERR_TYPE, () -> WORLD.allToAllw(four, new int[4], new int[4], new Datatype[4],
                four, new int[4], new int[4], new Datatype[4]));
        Datatype[] ints = {MPI.INT, MPI.INT, MPI.INT, MPI.INT};
        // byte 14 is not a whole number of ints, which is allowed, but the int there ends past the buffer
        assertError(MPI.ERR_BUFFER, () -> WORLD.allToAllw(four, new int[] {1, 1, 1, 1}, new int[] {0, 2, 4, 14}, ints,
                four, new int[4], new int[4], ints));
        assertError(MPI.ERR_ARG, () -> WORLD.allToAllw(four, new int[4], new int[4], new Datatype[3],
                four, new int[4], new int[4], ints));
        assertError(MPI.ERR_TOPOLOGY, () -> WORLD.neighborAllGather(four, 1, MPI.INT, four, 1, MPI.INT));
        assertTrue(requests().isEmpty(), "no bad call reaches the master: " + requests());

        assertEquals("MPI_Bcast: invalid root 4 (the communicator has 4 ranks)",
                assertThrows(MPIException.class, () -> WORLD.bcast(four, 1, MPI.INT, 4)).getMessage());
    }

    @Test
    void shouldRejectOperatorsThatDoNotApplyToTheType() throws Exception {
        int[] ints = new int[1];
        byte[] pairs = new byte[16];
        Op freed = new Op(new MatrixProduct(), false);
        freed.free();
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(new boolean[1], new boolean[1], 1, MPI.BOOLEAN, MPI.SUM));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BXOR));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(ints, new int[1], 1, MPI.INT, MPI.MINLOC));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(pairs, new byte[16], 2, MPI.INT2, MPI.SUM));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(new byte[1], new byte[1], 1, MPI.PACKED, MPI.MAX));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(ints, new int[1], 1, MPI.INT, MPI.REPLACE));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(ints, new int[1], 1, MPI.INT, MPI.NO_OP));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(ints, new int[1], 1, MPI.INT, null));
        assertError(MPI.ERR_OP, () -> WORLD.allReduce(ints, new int[1], 1, MPI.INT, freed));
        assertTrue(requests().isEmpty());
        assertEquals("MPI_Allreduce: MPI_MINLOC is not defined for MPI_INT (MPI_MINLOC and MPI_MAXLOC reduce only"
                + " {value, index} pair types such as MPI_DOUBLE_INT)",
                assertThrows(MPIException.class, () -> WORLD.allReduce(ints, new int[1], 1, MPI.INT, MPI.MINLOC)).getMessage());
    }

    @Test
    void shouldCallTheNonblockingFormsCollectivesToo() throws Exception {
        assertError(MPI.ERR_ROOT, () -> WORLD.iBcast(MPI.newIntBuffer(1), 1, MPI.INT, 9));
        assertError(MPI.ERR_TOPOLOGY, () -> WORLD.iNeighborAllToAll(MPI.newIntBuffer(1), 1, MPI.INT,
                MPI.newIntBuffer(1), 1, MPI.INT));
        assertTrue(requests().isEmpty());
    }
}
