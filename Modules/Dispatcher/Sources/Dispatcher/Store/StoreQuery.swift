/// A question to the store (``Dispatcher/records(_:)``, ``StoreMonitor/records(_:)``): which events, in which order, which page.
public struct StoreQuery: Sendable, Equatable {
    /// The order of the results.
    public enum Sort: String, Sendable, CaseIterable {
        /// By when the event was persisted (then store sequence).
        case createdAt
        /// By category, then sequence.
        case category
        /// By name, then sequence.
        case name
        /// By status, then sequence.
        case status
        /// By delivery attempts, then sequence.
        case attempts
    }

    /// Only events in this status; `nil` for all. ``EventStatus/delivered`` reads the store's
    /// bounded history of delivered events (``DispatcherConfiguration/deliveredHistory``); `nil` returns the
    /// events the store holds first, then that history, each part in the requested order.
    public var status: EventStatus?
    /// The order.
    public var sort: Sort
    /// Ascending (`true`) or descending.
    public var ascending: Bool
    /// The most rows returned.
    public var limit: Int
    /// Rows skipped first.
    public var offset: Int

    /// Creates a query.
    /// - Parameters:
    ///   - status: only this status, or `nil` for all. Defaults to all.
    ///   - sort: the order. Defaults to ``Sort/createdAt``.
    ///   - ascending: the direction. Defaults to oldest first.
    ///   - limit: the most rows. Defaults to 1,000.
    ///   - offset: rows skipped. Defaults to 0.
    public init(status: EventStatus? = nil, sort: Sort = .createdAt, ascending: Bool = true, limit: Int = 1_000, offset: Int = 0) {
        self.status = status
        self.sort = sort
        self.ascending = ascending
        self.limit = max(0, limit)
        self.offset = max(0, offset)
    }
}
