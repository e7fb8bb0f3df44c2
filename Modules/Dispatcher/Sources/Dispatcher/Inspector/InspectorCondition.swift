import Foundation

/// A problem that holds now (storage unavailable, a refused endpoint …), with a stable identity:
/// its area and ``kind``. Its message may change while it holds (a count grows), and Health
/// then shows the one entry with the latest message.
struct InspectorCondition: Sendable {
    /// What kind of problem, stable while it holds (`journal-losses`).
    var kind: String
    /// The problem as a diagnostic.
    var diagnostic: DispatcherDiagnostic

    /// The identity Health keys it by: area and kind.
    var key: String { "\(diagnostic.area.rawValue)/\(kind)" }

    /// A condition of `kind` in `area`.
    init(_ kind: String, area: DispatcherDiagnostic.Area, message: String) {
        self.kind = kind
        diagnostic = DispatcherDiagnostic(area: area, message: message)
    }
}
