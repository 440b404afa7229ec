package io.bdmpi.slave;

/** What a collect hands back for one request: a received message, a collective's result or a matched synchronous send. */
public sealed interface Completed permits Received, CollectiveResult, SendMatched {

    /** Id of the request that completed. */
    long requestId();
}
