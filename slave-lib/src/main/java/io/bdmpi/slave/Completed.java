package io.bdmpi.slave;

/** What a collect hands back for one request: a received message or a collective's result. */
public sealed interface Completed permits Received, CollectiveResult {

    /** Id of the request that completed. */
    long requestId();
}
