import Foundation

extension Dispatcher {
    /// A sentence naming the process limit that leaves too little to start the Dispatcher
    /// (`out of file descriptors (RLIMIT_NOFILE = 6): …`), or `nil` when there is enough.
    ///
    /// A command-line program calls it first, before any `await`: where the Swift runtime
    /// cannot create a thread (an address-space limit too small for a thread's stack),
    /// libdispatch waits for one forever, and where no descriptor is left libdispatch's own
    /// thread monitor stops the process; neither can be caught once it happens.
    public static func resourceShortage() -> String? { ResourceLimit.shortage() }
}
