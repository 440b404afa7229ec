package io.bdmpi.master.config;

import java.nio.file.Path;

/**
 * Settings of one node that may differ between the nodes of a cluster (the config file's
 * {@code per-node} list). A null field means "as for every node" (the command line or the file's
 * top-level value).
 *
 * @param node             the node's index, 0-based
 * @param slaves           slaves on this node (-ns), or null
 * @param running          most slaves running at once on this node (-nr; {@link MasterContext#RUNNING_AUTO} for auto), or null
 * @param memoryLimitBytes memory limit of this node's job in bytes, or null
 * @param workDirParent    directory under which this node's work directory is made (-wd), or null
 */
public record NodeSettings(int node, Integer slaves, Integer running, Long memoryLimitBytes, Path workDirParent) {
}
