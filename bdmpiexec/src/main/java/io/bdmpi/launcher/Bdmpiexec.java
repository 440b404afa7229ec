package io.bdmpi.launcher;

import io.bdmpi.master.NodeMaster;
import io.bdmpi.master.config.MasterContext;

import java.io.PrintWriter;

/**
 * The {@code bdmpiexec} command: parses the command line into a {@link MasterContext}, checks it
 * (see {@link LaunchOptions}) and runs one {@link NodeMaster}, or with several nodes starts one
 * master per node through MPI ({@link MultiNodeLaunch}). Invalid input prints one line
 * {@code bdmpiexec: <reason>} and a usage hint on stderr and exits with {@value LaunchOptions#EXIT_USAGE}.
 * Under a --memory-limit the one master runs in a JVM of its own, sized for the limit ({@link SizedMaster}).
 */
public final class Bdmpiexec {

    private Bdmpiexec() {
    }

    /**
     * Runs the command and exits with the job's exit code (see docs/troubleshooting.md).
     *
     * @param args the command line: options, then the program and its arguments
     */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        LaunchOptions.Result result = LaunchOptions.parse(args, out, err);
        out.flush();
        err.flush();
        if (result.context() == null) {
            System.exit(result.exitCode());
        }
        if (result.masters() != null) {
            System.exit(result.masters().run());
        }
        if (SizedMaster.wanted(result.context())) {
            System.exit(SizedMaster.run(result.context(), args));
        }
        SizedMaster.endWithLauncher();
        System.exit(new NodeMaster(result.context()).run());
    }
}
