import Foundation

/// The value of an HTTP `Retry-After` header: a number of seconds or an HTTP date.
public enum RetryAfter: Sendable, Equatable {
    /// Wait this many seconds.
    case seconds(Double)
    /// Wait until this moment.
    case date(Date)

    /// Parses a header value: delay-seconds (`"120"`) or an IMF-fixdate
    /// (`"Wed, 21 Oct 2015 07:28:00 GMT"`, also the obsolete RFC 850 and asctime forms).
    /// Returns nil for anything else.
    public init?(headerValue: String) {
        let text = headerValue.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite, seconds >= 0 {
            self = .seconds(seconds)
            return
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                self = .date(date)
                return
            }
        }
        return nil
    }

    /// The delay from `now`, never negative.
    public func delay(from now: Date) -> TimeInterval {
        switch self {
        case .seconds(let seconds): max(0, seconds)
        case .date(let date): max(0, date.timeIntervalSince(now))
        }
    }
}
