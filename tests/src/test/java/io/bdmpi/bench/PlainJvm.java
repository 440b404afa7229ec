package io.bdmpi.bench;

/**
 * Baseline of {@link StartupBenchmarkTest}: a plain JVM that does what an {@link Idle} rank does
 * besides MPI, print its resident memory ({@code PlainJvm rssKiB=N}), and exits.
 */
public final class PlainJvm {

    private PlainJvm() {
    }

    public static void main(String[] args) {
        System.out.println(Measured.line("PlainJvm", "rssKiB", ProcStatus.rssKiB()));
    }
}
