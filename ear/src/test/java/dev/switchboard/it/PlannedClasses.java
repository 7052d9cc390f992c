package dev.switchboard.it;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The test classes this run executes, learnt from the launcher's plan (registered through
 * {@code META-INF/services}): a class that must wait for the others on a shared instance waits only
 * for those the run selected ({@code -Dit.test} may select one alone).
 */
public final class PlannedClasses implements TestExecutionListener {

    private static final Set<String> PLANNED = ConcurrentHashMap.newKeySet();
    private static volatile boolean known;

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        for (TestIdentifier root : plan.getRoots()) {
            plan.getDescendants(root).forEach(id -> id.getSource().filter(ClassSource.class::isInstance)
                    .map(source -> ((ClassSource) source).getClassName()).ifPresent(PLANNED::add));
        }
        known = true;
    }

    /** Whether this run executes {@code type}. */
    static boolean includes(Class<?> type) {
        if (!known) {
            throw new IllegalStateException("no test plan seen: " + PlannedClasses.class.getName()
                    + " is registered in META-INF/services of the tests' resources");
        }
        return PLANNED.contains(type.getName());
    }
}
