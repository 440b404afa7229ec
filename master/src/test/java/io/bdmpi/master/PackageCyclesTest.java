package io.bdmpi.master;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The master's packages depend on each other without cycles, the root package
 * ({@code io.bdmpi.master}, the composition root) included: see package-info.java of each
 * package for the order. A cycle fails with ArchUnit's description of it, class by class.
 */
class PackageCyclesTest {

    private static final String ROOT = "io.bdmpi.master";

    private static final JavaClasses MASTER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    /** Every class of the master is in the slice of its own package; classes of other code are in none. */
    private static final SliceAssignment BY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String p = sliceOf(c);
            return p != null ? SliceIdentifier.of(p) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of " + ROOT;
        }
    };

    /** The slice of a class: its package if it is the master's, else null. */
    private static String sliceOf(JavaClass c) {
        String p = c.getPackageName();
        return p.equals(ROOT) || p.startsWith(ROOT + ".") ? p : null;
    }

    @Test
    void thePackagesOfTheMasterFormNoCycle() {
        slices().assignedFrom(BY_PACKAGE).should().beFreeOfCycles().check(MASTER);
    }

    /** The rule above sees the root package and every subpackage, so a cycle through the root would fail it. */
    @Test
    void theRuleCoversTheRootPackageAndEverySubpackage() {
        Set<String> packages = new TreeSet<>();
        for (JavaClass c : MASTER) {
            packages.add(sliceOf(c));
        }
        assertTrue(packages.contains(ROOT), "root package not covered: " + packages);
        assertTrue(packages.containsAll(Set.of(ROOT + ".config", ROOT + ".scheduler", ROOT + ".collective",
                ROOT + ".internode")), "packages covered: " + packages);
        assertTrue(packages.size() >= 10, "packages covered: " + packages);
    }
}
