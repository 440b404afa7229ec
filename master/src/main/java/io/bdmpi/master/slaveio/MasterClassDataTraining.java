package io.bdmpi.master.slaveio;

import io.bdmpi.slave.ClassDataTraining;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The training run of the masters' class-data archive ({@link ClassDataArchive#forMasters}): run by
 * bdmpiexec once per set of jars, under {@code -XX:ArchiveClassesAtExit}, it loads (without
 * initializing) every class of the jars named on its command line, so that the archive holds what
 * a master loads. A master does MPI through jnr-ffi, whose stubs are classes generated at run time
 * that no archive holds; what it loads from jars is all here. It needs no MPI and no other process.
 *
 * <p>Usage (by bdmpiexec only): {@code MasterClassDataTraining JAR...}.
 */
public final class MasterClassDataTraining {

    private MasterClassDataTraining() {
    }

    public static void main(String[] jars) throws IOException {
        int loaded = 0;
        for (String jar : jars) {
            loaded += ClassDataTraining.loadAll(Path.of(jar));
        }
        System.out.println("loaded " + loaded + " classes");
    }
}
