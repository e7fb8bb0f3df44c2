import Tracking

/// This library's name and version, as reported in every event's context: the core's
/// ``Tracking/TrackingLibrary``, under its former name.
@available(*, deprecated, renamed: "TrackingLibrary")
public typealias LibraryInfo = TrackingLibrary
