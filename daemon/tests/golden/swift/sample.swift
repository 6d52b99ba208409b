import Foundation

/// Downloads images and keeps them in a two-level cache.
public let defaultCacheLimit = 64
private let cacheQueueLabel = "image-cache"

public typealias ImageHandler = (Result<Data, ImageError>) -> Void

public enum ImageError: Error {
    case notFound(URL)
    case decoding(reason: String)
    case cancelled
}

public protocol ImageCache: AnyObject {
    var count: Int { get }
    func image(for url: URL) -> Data?
    func store(_ data: Data, for url: URL)
    init(limit: Int)
}

struct CacheEntry {
    let data: Data
    var lastAccess: Date
    static let empty = CacheEntry(data: Data(), lastAccess: .distantPast)
}

public final class MemoryCache: ImageCache {
    public private(set) var count = 0
    private var entries: [URL: CacheEntry] = [:]
    private let lock = NSLock()
    let limit: Int

    public required init(limit: Int = defaultCacheLimit) {
        self.limit = limit
    }

    convenience init() {
        self.init(limit: 16)
    }

    deinit {
        entries.removeAll()
    }

    public func image(for url: URL) -> Data? {
        lock.lock()
        defer { lock.unlock() }
        entries[url]?.lastAccess = Date()
        return entries[url]?.data
    }

    public func store(_ data: Data, for url: URL) {
        lock.lock()
        defer { lock.unlock() }
        if entries.count >= limit { evictOldest() }
        entries[url] = CacheEntry(data: data, lastAccess: Date())
        count = entries.count
    }

    private func evictOldest() {
        func age(_ entry: CacheEntry) -> TimeInterval { -entry.lastAccess.timeIntervalSinceNow }
        guard let oldest = entries.max(by: { age($0.value) < age($1.value) }) else { return }
        entries[oldest.key] = nil
    }

    public subscript(url: URL) -> Data? {
        image(for: url)
    }

    public var isEmpty: Bool {
        entries.isEmpty
    }
}

public actor ImageLoader {
    private let cache: ImageCache
    private var inFlight: [URL: Task<Data, Error>] = [:]

    public init(cache: ImageCache) {
        self.cache = cache
    }

    public func load(_ url: URL) async throws -> Data {
        if let cached = cache.image(for: url) { return cached }
        let task = Task { try await URLSession.shared.data(from: url).0 }
        inFlight[url] = task
        return try await task.value
    }
}

extension MemoryCache {
    public func prefetch(_ urls: [URL], loader: ImageLoader) async {
        for url in urls where image(for: url) == nil {
            guard let data = try? await loader.load(url) else { continue }
            store(data, for: url)
        }
    }
}

func makeDefaultCache() -> ImageCache {
    MemoryCache(limit: defaultCacheLimit)
}
