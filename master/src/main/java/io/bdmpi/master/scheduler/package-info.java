/**
 * The master's core, the single writer: {@code Scheduler} handles every {@code MasterEvent} on the
 * scheduler thread, matches messages, drives the collective engine, and lets at most
 * {@code nrunning} slaves run, choosing whom to resume ({@code ResumePolicy},
 * {@code MostResidentPolicy}) and, under {@code -nr auto}, how many ({@code RunningController});
 * also the job's outcome and deadlock detection over nodes. May depend on every package below the
 * root; none of them depends on it.
 */
package io.bdmpi.master.scheduler;
