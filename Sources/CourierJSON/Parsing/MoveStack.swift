/// A growable stack the parser moves values into and out of without retain/release traffic.
///
/// Containers are built here and moved out at their end into arrays of exactly the right
/// capacity. The owner must call ``deallocate()`` once.
struct MoveStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from `start` to the top into a new array, leaving `start` elements.
    mutating func popArray(from start: Int) -> [Element] {
        let n = count - start
        let source = storage + start
        let result = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: source, count: n)
            initialized = n
        }
        count = start
        return result
    }

    /// The elements as a buffer, valid until the stack next changes.
    var buffer: UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: storage, count: count)
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        for element in elements { push(element) }
    }

    /// Removes all elements, keeping the storage.
    mutating func removeAll() {
        storage.deinitialize(count: count)
        count = 0
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newStorage.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    func deallocate() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}
