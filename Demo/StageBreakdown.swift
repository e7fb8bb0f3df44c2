import Dispatcher
import Foundation
import Tracking

/// Where a send's microseconds go: each processor of a stack, then the Dispatcher, timed one
/// at a time on the same events, in place, as `EventReporter` runs them.
struct StageBreakdown {
    /// The processors, in order.
    let processors: [any EventProcessor]
    /// The Dispatcher the events end in.
    let dispatcher: Dispatcher

    /// One stage's cost.
    struct Stage {
        /// `snake_case` of the stage's type name, or `event` and `dispatcher`.
        let name: String
        /// The median cost of one event, in nanoseconds.
        let nanosecondsP50: UInt64
    }

    /// The stages' costs, and how many events reached the Dispatcher.
    struct Measurement {
        let stages: [Stage]
        let sent: Int
    }

    /// Sends `events` (made when asked for, untimed), timing each step.
    func measure(count: Int, event makeEvent: (Int) -> TrackedEvent) -> Measurement {
        var samples = [[UInt64]](repeating: [], count: processors.count + 2)
        for index in samples.indices { samples[index].reserveCapacity(count) }
        var sent = 0
        for index in 0..<count {
            let made = makeEvent(index)
            var start = DispatchTime.now().uptimeNanoseconds
            var event = TrackedEvent(category: made.category, name: made.name, action: made.action, userData: made.userData)
            var end = DispatchTime.now().uptimeNanoseconds
            samples[0].append(end - start)
            var kept = true
            for (stage, processor) in processors.enumerated() where kept {
                start = end
                kept = processor.process(&event)
                end = DispatchTime.now().uptimeNanoseconds
                samples[stage + 1].append(end - start)
            }
            guard kept else { continue }
            start = DispatchTime.now().uptimeNanoseconds
            if dispatcher.send(event) != nil { sent += 1 }
            samples[processors.count + 1].append(DispatchTime.now().uptimeNanoseconds - start)
        }
        let names = ["event"] + processors.map { Self.snakeCase(String(describing: type(of: $0))) } + ["dispatcher"]
        let stages = zip(names, samples).map { name, values in
            Stage(name: name, nanosecondsP50: values.isEmpty ? 0 : values.sorted()[values.count / 2])
        }
        return Measurement(stages: stages, sent: sent)
    }

    /// `ContextHydrator` → `context_hydrator`.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result.append("_") }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
