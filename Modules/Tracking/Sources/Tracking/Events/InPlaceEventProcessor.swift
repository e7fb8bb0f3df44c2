/// An ``EventProcessor`` that changes the event where it is: ``EventReporter`` passes each
/// event through such stages without copying it. ``EventProcessor/process(_:)`` comes for free.
public protocol InPlaceEventProcessor: EventProcessor {
    /// Changes `event` where it is; returns `false` to stop it here.
    func processInPlace(_ event: inout TrackedEvent) -> Bool
}

extension InPlaceEventProcessor {
    /// A changed copy of `event`, or `nil` when ``processInPlace(_:)`` stops it.
    public func process(_ event: TrackedEvent) -> TrackedEvent? {
        var result = event
        return processInPlace(&result) ? result : nil
    }
}
