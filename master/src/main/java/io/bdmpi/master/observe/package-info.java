/**
 * What a job shows of itself: end-of-run statistics ({@code JobStats}), snapshots and the live
 * progress display, the timeline recorded for {@code --trace} and {@code --report}, and the trace
 * and HTML report made from it. The progress display asks the scheduler for snapshots through a
 * plain {@code Consumer} wired in the root. May depend on {@code session} and {@code config}.
 */
package io.bdmpi.master.observe;
