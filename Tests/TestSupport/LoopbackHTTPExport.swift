// The loopback collector lives in the LoopbackHTTP library, which the demo's bench uses too.
@_exported import LoopbackHTTP
