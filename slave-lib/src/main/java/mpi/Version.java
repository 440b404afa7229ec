package mpi;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** A version of the MPI standard, as returned by {@link MPI#getVersion()}. */
public final class Version {

    private final int version;
    private final int subVersion;

    Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    /**
     * The major number, e.g. 3 for MPI 3.1.
     *
     * @return the major number
     */
    public int getVersion() {
        return version;
    }

    /**
     * The minor number, e.g. 1 for MPI 3.1.
     *
     * @return the minor number
     */
    public int getSubVersion() {
        return subVersion;
    }

    /** The project version, e.g. "0.1.0-SNAPSHOT", written into version.properties by the Maven build; "unknown" without it. */
    static String project() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    @Override
    public String toString() {
        return version + "." + subVersion;
    }
}
