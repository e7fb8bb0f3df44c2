/// This library's name and version, as reported in every event's context.
public enum LibraryInfo {
    /// The library's name.
    public static let name = "swift-tracking"
    /// The library's version.
    public static let version = "0.1.0"
}
