/**
 * The master's settings: {@link io.bdmpi.master.config.MasterContext}, every setting of a node
 * master in one place (the launcher fills it from the command line and the config file), and
 * {@link io.bdmpi.master.config.NodeSettings}, what may differ per node. Many concerns read the
 * settings, so this package sits low: it may depend only on {@code internode} (placements) and
 * {@code memory} (whether a memory limit can be enforced here).
 */
package io.bdmpi.master.config;
