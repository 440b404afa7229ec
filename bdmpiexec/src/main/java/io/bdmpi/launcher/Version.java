package io.bdmpi.launcher;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** {@code bdmpiexec --version}: the project version, written into version.properties by the Maven build. */
final class Version implements CommandLine.IVersionProvider {

    /** The project version, e.g. "0.1.0-SNAPSHOT". */
    static String project() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties missing from the launcher's class path");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"bdmpiexec " + project(), "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + ")"};
    }
}
