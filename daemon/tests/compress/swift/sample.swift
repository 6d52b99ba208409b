// swift-tools-version:5.9
// Copyright 2024 Example Corp.
import Foundation // dates

let banner = "// not a comment /* nor this */"
let multi = """
    /* inside a multi-line string */   
    second line
    """

/// A value that can be cached.
public protocol Cacheable {
    associatedtype Key: Hashable
    var key: Key { get }
    func encode() -> Data
}

public struct Entry<Value: Codable>: Cacheable {
    public let key: String
    public var value: Value // payload

    public var size: Int {
        let data = encode()
        return data.count
    }

    public var label: String {
        get {
            return "entry \(key)"
        }
        set {
            print("ignored \(newValue)")
        }
    }

    public init(key: String, value: Value) {
        self.key = key
        self.value = value
    }

    public func encode() -> Data {
        /* nested functions disappear */
        func encoder() -> JSONEncoder {
            return JSONEncoder()
        }
        return (try? encoder().encode(value)) ?? Data()
    }
}

public final class Store<Value: Codable> {
    private var entries: [String: Entry<Value>] = [:]

    deinit {
        print("store released")
        entries.removeAll()
    }

    public func put(_ entry: Entry<Value>) { entries[entry.key] = entry }

    public func get(_ key: String) -> Entry<Value>? {
        guard let entry = entries[key] else { return nil }
        return entry
    }
}
