import Foundation
import Testing
@testable import SluiceCore

/// `StageValues` and `TaskStorage` keep values by key in a list searched from the front
/// (`KeyedValues`): what a dictionary did, they must still do.
@Suite("Values kept by key")
struct KeyedValuesTests {
    enum Count: StageValueKey { typealias Value = Int }
    enum Label: StageValueKey { typealias Value = String }
    enum Names: StageValueKey { typealias Value = [String] }
    enum Unset: StageValueKey { typealias Value = Int }
    /// A key of another type with the same value type: a key is its type, not its value's.
    enum OtherCount: StageValueKey { typealias Value = Int }

    @Test("each key keeps its own value: set, replaced, removed first, middle and last, in any order")
    func setReplaceRemove() {
        var values = StageValues()
        #expect(values[Count.self] == nil)
        values[Count.self] = 1
        values[Label.self] = "a"
        values[Names.self] = ["x", "y"]
        values[OtherCount.self] = 7
        #expect(values[Count.self] == 1 && values[Label.self] == "a" && values[Names.self] == ["x", "y"] && values[OtherCount.self] == 7)
        #expect(values[Unset.self] == nil)
        values[Count.self] = 2
        #expect(values[Count.self] == 2 && values[OtherCount.self] == 7)
        values[Label.self] = nil
        #expect(values[Label.self] == nil && values[Names.self] == ["x", "y"] && values[Count.self] == 2)
        values[Count.self] = nil
        values[OtherCount.self] = nil
        #expect(values[Names.self] == ["x", "y"])
        values[Names.self] = nil
        #expect(values[Names.self] == nil && values[Count.self] == nil)
        values[Unset.self] = nil
        #expect(values[Unset.self] == nil)
        values[Label.self] = "again"
        #expect(values[Label.self] == "again")
    }

    @Test("a copy is a value: changing it leaves the original as it was, and the other way round")
    func copiesAreIndependent() {
        var original = StageValues()
        original[Count.self] = 1
        var copy = original
        copy[Count.self] = 2
        copy[Label.self] = "copy"
        #expect(original[Count.self] == 1 && original[Label.self] == nil)
        #expect(copy[Count.self] == 2 && copy[Label.self] == "copy")
        var emptied = original
        emptied[Count.self] = nil
        #expect(original[Count.self] == 1 && emptied[Count.self] == nil)
        original[Names.self] = ["o"]
        #expect(emptied[Names.self] == nil && copy[Names.self] == nil)
    }

    @Test("task storage: set, read, update in place and removal, by key")
    func taskStorage() {
        enum Attempts: TaskStorageKey { typealias Value = Int }
        enum Notes: TaskStorageKey { typealias Value = [String] }
        let storage = TaskStorage()
        #expect(storage[Attempts.self] == nil)
        storage.update(Attempts.self) { $0 = ($0 ?? 0) + 1 }
        storage.update(Attempts.self) { $0 = ($0 ?? 0) + 1 }
        storage[Notes.self] = ["first"]
        storage.update(Notes.self) { $0?.append("second") }
        #expect(storage[Attempts.self] == 2 && storage[Notes.self] == ["first", "second"])
        let removed = storage.update(Attempts.self) { value -> Int? in
            defer { value = nil }
            return value
        }
        #expect(removed == 2 && storage[Attempts.self] == nil && storage[Notes.self] == ["first", "second"])
    }
}
