package mpi;

/**
 * What {@link CartComm} and {@link GraphComm} share: a communicator with a {@link Neighborhood},
 * its topology and the private channel of its neighbourhood collectives.
 */
abstract class TopologyComm extends Intracomm {

    /** The topology and its channel; null for a null communicator. */
    private final Neighborhood neighborhood;

    TopologyComm(int commId, int rank, int size, String name, Neighborhood neighborhood) {
        super(commId, rank, size, name);
        this.neighborhood = neighborhood;
    }

    @Override
    final Neighborhood neighborhood() {
        return neighborhood;
    }
}
