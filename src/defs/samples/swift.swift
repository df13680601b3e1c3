import Foundation

public let maxRetries = 3
var registry: [String: Int] = [:]

/// A point on the plane.
public struct Point: Equatable {
    var x: Double
    let y: Double

    init(x: Double, y: Double) {
        let scale = 1.0
        self.x = x * scale
        self.y = y
    }

    func distance(to other: Point) -> Double {
        return (x - other.x).magnitude
    }

    static func origin() -> Point { Point(x: 0, y: 0) }
}

protocol Shape {
    var area: Double { get }
    func describe() -> String
}

@MainActor
final class Canvas: Shape {
    private(set) var shapes: [Point] = []
    var area: Double { 0 }

    func describe() -> String {
        func helper() -> String { "canvas" }
        return helper()
    }

    deinit {
        shapes.removeAll()
    }
}

enum Direction: String {
    case north, south
    case east

    var opposite: Direction {
        switch self {
        case .north: return .south
        default: return .north
        }
    }
}

extension Point: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}

actor Counter {
    var value = 0
    func increment() { value += 1 }
}

typealias Pair = (Point, Point)

func topLevel(_ points: [Point]) -> Int {
    let local = points.count
    return local
}
