/// This library's name and version: the one definition every payload, context and
/// `User-Agent` reports. A release changes ``version`` together with the CHANGELOG's latest
/// release heading (a test checks they agree) and is tagged with it.
public enum TrackingLibrary {
    /// The library's name.
    public static let name = "swift-tracking"
    /// The library's version.
    public static let version = "0.1.0"
}
