import Tracking

/// A demo-local feature: marketing promotions, whose events need marketing consent.
///
/// It shows that an app can add a feature's events without touching shared code.
enum Promotion: EventType {
    enum Name: String, Sendable { case banner }
    enum Action: String, Sendable { case view, tap }
}
