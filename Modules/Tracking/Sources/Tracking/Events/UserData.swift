import Foundation

/// The data attached to an event: typed values by key. Arrays and objects in it nest at most
/// ``UserDataValue/maximumDepth`` levels; deeper ones are cut and the event flagged.
public typealias UserData = [String: UserDataValue]
